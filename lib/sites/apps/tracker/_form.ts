/** The issue form (new and edit): its fields as submitted, server-side validation, and its markup. */
import { html } from "hono/html";
import type { AppDb, Row } from "../../db.ts";
import type { Html } from "../../layout.ts";
import { titleError } from "./_actions.ts";
import { type Issue, LABELS, people, PRIORITIES, projects, sprints, STATUSES, TYPES } from "./_model.ts";
import { BASE } from "./_views.ts";

/** The form's values as strings, the way they were submitted (or taken from an issue). */
export interface IssueForm {
  project: string;
  title: string;
  description: string;
  type: string;
  status: string;
  priority: string;
  assignee: string;
  labels: string[];
  due_date: string;
  estimate: string;
  sprint: string;
}

export type FormErrors = Partial<Record<keyof IssueForm, string>>;

export const emptyForm = (project = ""): IssueForm => ({
  project,
  title: "",
  description: "",
  type: "task",
  status: "todo",
  priority: "medium",
  assignee: "",
  labels: [],
  due_date: "",
  estimate: "3",
  sprint: "",
});

export function formFromIssue(i: Issue): IssueForm {
  return {
    project: i.project_key,
    title: i.title,
    description: i.description,
    type: i.type,
    status: i.status,
    priority: i.priority,
    assignee: i.assignee ?? "",
    labels: i.labels ? i.labels.split(",") : [],
    due_date: i.due_date ?? "",
    estimate: String(i.estimate),
    sprint: i.sprint_id ? String(i.sprint_id) : "",
  };
}

/** Reads a submitted form body. */
export function formFromBody(body: Record<string, string | File | (string | File)[]>): IssueForm {
  const one = (k: string) => {
    const v = body[k];
    return typeof v === "string" ? v.trim() : Array.isArray(v) && typeof v[0] === "string" ? v[0].trim() : "";
  };
  const labels = body.labels === undefined ? [] : (Array.isArray(body.labels) ? body.labels : [body.labels]);
  return {
    ...emptyForm(),
    project: one("project").toUpperCase(),
    title: one("title"),
    description: one("description"),
    type: one("type"),
    status: one("status") || "todo",
    priority: one("priority"),
    assignee: one("assignee"),
    labels: labels.filter((l): l is string => typeof l === "string"),
    due_date: one("due_date"),
    estimate: one("estimate"),
    sprint: one("sprint"),
  };
}

const isDay = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/**
 * Checks a form; `current` is the issue being edited (its project is fixed and its due date may stay in the
 * past), absent for a new issue. Returns the issues columns to write, or the errors per field.
 */
export function validateForm(
  db: AppDb,
  f: IssueForm,
  today: string,
  current?: Issue,
): { errors: FormErrors; row?: Row } {
  const e: FormErrors = {};
  const project = projects(db).find((p) => p.key === f.project);
  if (!current && !project) e.project = "Choose a project.";
  e.title = titleError(f.title);
  if (f.description.length > 5000) e.description = "Description must be at most 5000 characters.";
  if (!TYPES.some((t) => t.value === f.type)) e.type = "Choose a type.";
  if (!PRIORITIES.some((p) => p.value === f.priority)) e.priority = "Choose a priority.";
  if (current && !STATUSES.some((s) => s.value === f.status)) e.status = "Choose a status.";
  const person = people(db).find((p) => p.name.toLowerCase() === f.assignee.toLowerCase());
  if (f.assignee && f.assignee !== "Unassigned" && !person) e.assignee = "Choose an assignee from the list.";
  if (f.labels.some((l) => !LABELS.includes(l))) e.labels = "Choose labels from the list.";
  if (f.due_date && !isDay(f.due_date)) e.due_date = "Enter the due date as YYYY-MM-DD.";
  else if (f.due_date && f.due_date < today && f.due_date !== current?.due_date) {
    e.due_date = "Due date cannot be in the past.";
  }
  const estimate = Number(f.estimate);
  if (!/^\d+$/.test(f.estimate) || estimate > 20) e.estimate = "Estimate must be a whole number from 0 to 20.";
  const sprint = sprints(db).find((s) => String(s.id) === f.sprint);
  if (f.sprint && !sprint) e.sprint = "Choose a sprint from the list.";
  for (const k of Object.keys(e) as (keyof IssueForm)[]) if (!e[k]) delete e[k];
  if (Object.keys(e).length) return { errors: e };
  const row: Row = {
    title: f.title.trim(),
    description: f.description,
    type: f.type,
    priority: f.priority,
    assignee_id: person?.id ?? null,
    labels: sameLabels(current?.labels, f.labels)
      ? current!.labels
      : LABELS.filter((l) => f.labels.includes(l)).join(","),
    due_date: f.due_date || null,
    estimate,
    sprint_id: sprint?.id ?? null,
  };
  if (current) row.status = f.status;
  else row.project_id = project!.id;
  return { errors: e, row };
}

/**
 * Whether a stored label list holds exactly `chosen`: then it is kept as stored (some seeded issues list theirs in
 * another order than the form's), so saving the form untouched writes nothing.
 */
function sameLabels(stored: string | null | undefined, chosen: string[]): boolean {
  if (stored === undefined || stored === null) return false;
  const have = stored ? stored.split(",") : [];
  return have.length === chosen.length && have.every((l) => chosen.includes(l));
}

const err = (e: FormErrors, k: keyof IssueForm) =>
  e[k] ? html`<span class="field-error" id="${k}-error">${e[k]}</span>` : "";

const options = (list: { value: string; label: string }[], value: string) =>
  list.map((o) => html`<option value="${o.value}" ${o.value === value ? "selected" : ""}>${o.label}</option>`);

function choiceFields(db: AppDb, f: IssueForm, e: FormErrors, edit: boolean): Html {
  return html`
    <fieldset class="choices" id="type-field"><legend>Type</legend>${TYPES.map((t) =>
      html`
        <label
          for="type-${t.value}"><input type="radio" name="type" id="type-${t.value}" value="${t.value}" ${f
              .type === t.value
            ? "checked"
            : ""}> ${t.label}</label>
      `
    )} ${err(e, "type")}</fieldset>
    ${edit
      ? html`<div><label for="status">Status</label><select id="status" name="status">${
        options(
          STATUSES,
          f.status,
        )
      }</select> ${err(e, "status")}</div>`
      : ""}
    <div><label for="priority">Priority</label>
      <select id="priority" name="priority">${options(PRIORITIES, f.priority)}</select> ${err(e, "priority")}</div>
    <div><label id="assignee-label">Assignee</label>
      <div class="combobox" id="assignee-box" data-combobox data-name="assignee" data-label="Assignee"
        data-placeholder="Unassigned" data-options="${JSON.stringify([
          "Unassigned",
          ...people(db).map((p) => p.name),
        ])}" data-value="${f.assignee}"></div> ${err(e, "assignee")}</div>
    <fieldset class="choices" id="labels-field"><legend>Labels</legend>${LABELS.map((l) =>
      html`
        <label
          for="label-${l}"><input type="checkbox" name="labels" id="label-${l}" value="${l}" ${f.labels
              .includes(l)
            ? "checked"
            : ""}> ${l}</label>
      `
    )} ${err(e, "labels")}</fieldset>
  `;
}

/** The whole form; `issue` is the issue being edited (absent for a new one). */
export function issueForm(db: AppDb, f: IssueForm, e: FormErrors, issue?: Issue): Html {
  const action = issue ? `${BASE}/issues/${issue.key}/edit` : `${BASE}/issues`;
  const list = Object.values(e);
  return html`
    ${list.length
      ? html`<div class="errors" role="alert" id="form-errors"><b>Please fix ${list.length} ${
        list.length === 1 ? "problem" : "problems"
      }:</b><ul>${list.map((m) => html`<li>${m}</li>`)}</ul></div>`
      : ""}
    <form method="post" action="${action}" class="stack card" id="issue-form">
      ${issue
        ? html`<p>Project: <b>${issue.project_name}</b> (${issue.project_key})</p>`
        : html`<div><label for="project">Project</label><select id="project" name="project">
          <option value="">Choose a project…</option>${
          options(
            projects(db).map((p) => ({ value: p.key, label: `${p.name} (${p.key})` })),
            f.project,
          )
        }</select> ${err(e, "project")}</div>`}
      <div><label for="title">Title</label><input type="text" id="title" name="title" value="${f.title}"> ${err(
        e,
        "title",
      )}</div>
      <div><label for="description">Description</label><textarea id="description" name="description">${f
        .description}</textarea> ${err(e, "description")}</div>
      ${choiceFields(db, f, e, !!issue)}
      <div><label for="due_date">Due date</label><input type="text" id="due_date" name="due_date" data-datepicker
        value="${f.due_date}"> ${err(e, "due_date")}</div>
      <div><label for="estimate">Estimate (story points): <output id="estimate-value">${f.estimate}</output></label>
        <input type="range" id="estimate" name="estimate" min="0" max="20" step="1" value="${f.estimate}"
          data-output="estimate-value" style="width:100%"> ${err(e, "estimate")}</div>
      <div><label for="sprint">Sprint</label><select id="sprint" name="sprint"><option value="">No sprint</option>
        ${options(sprints(db).map((s) => ({ value: String(s.id), label: `${s.name} (${s.state})` })), f.sprint)}
      </select> ${err(e, "sprint")}</div>
      <div class="row">
        <button type="submit" id="${issue ? "save-issue" : "create-issue"}">${issue
          ? "Save changes"
          : "Create issue"}</button>
        <a href="${issue ? `${BASE}/issues/${issue.key}` : `${BASE}/issues`}" id="cancel">Cancel</a>
      </div>
    </form>
  `;
}
