/// <reference lib="dom" />
/**
 * Widgets shared by the sandbox apps, served as /_sandbox/widgets.js. Markup opts in with data attributes:
 * - `<button data-copy="TEXT">`: copies TEXT with navigator.clipboard and says "Copied".
 * - `<form data-confirm="QUESTION">`: asks confirm(QUESTION) before submitting.
 * - `<div class="combobox" data-combobox data-name="F" data-options='["a","b"]' data-value="a">`: a custom
 *   (non-native) combobox: a text box with a filtered listbox; the choice goes to a hidden input named F.
 * - `<input data-datepicker name="F">`: a text box with a calendar pop-up (month navigation, day buttons; today is
 *   the sandbox's frozen day), writing YYYY-MM-DD.
 * - `<input type="range" data-output="ID">`: shows the slider's value in the element ID.
 *
 * Runs in the page: serialised with toString(), so it must not close over anything.
 */
export function widgetsMain(): void {
  const now = new Date((window as unknown as { __SANDBOX_NOW?: string }).__SANDBOX_NOW ?? Date.now());
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = "") => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  };

  for (const b of document.querySelectorAll<HTMLElement>("[data-copy]")) {
    b.addEventListener("click", async (e) => {
      e.preventDefault();
      await navigator.clipboard.writeText(b.dataset.copy ?? "");
      const was = b.textContent;
      b.textContent = "Copied";
      setTimeout(() => (b.textContent = was), 1500);
    });
  }

  for (const f of document.querySelectorAll<HTMLFormElement>("form[data-confirm]")) {
    f.addEventListener("submit", (e) => {
      if (!confirm(f.dataset.confirm ?? "Are you sure?")) e.preventDefault();
    });
  }

  for (const r of document.querySelectorAll<HTMLInputElement>("input[type=range][data-output]")) {
    const out = document.getElementById(r.dataset.output ?? "");
    const show = () => out && (out.textContent = r.value);
    r.addEventListener("input", show);
    show();
  }

  let comboSeq = 0;
  for (const box of document.querySelectorAll<HTMLElement>("[data-combobox]")) {
    const options: string[] = JSON.parse(box.dataset.options ?? "[]");
    const listId = `combo-list-${++comboSeq}`;
    const hidden = el("input", { type: "hidden", name: box.dataset.name ?? "" });
    hidden.value = box.dataset.value ?? "";
    const input = el("input", {
      type: "text",
      role: "combobox",
      "aria-expanded": "false",
      "aria-controls": listId,
      "aria-autocomplete": "list",
      placeholder: box.dataset.placeholder ?? "Choose…",
      "aria-label": box.dataset.label ?? box.dataset.name ?? "choose",
      autocomplete: "off",
    });
    input.value = hidden.value;
    const list = el("ul", { role: "listbox", id: listId, class: "combo-list", hidden: "" });
    const choose = (v: string) => {
      hidden.value = v;
      input.value = v;
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      box.dispatchEvent(new CustomEvent("combo-change", { bubbles: true, detail: v }));
      // A choice is a change of the field, by keyboard or mouse alike (the recorder sees it: method checks).
      input.dispatchEvent(new Event("change", { bubbles: true }));
    };
    const render = () => {
      const q = input.value.toLowerCase();
      list.replaceChildren(
        ...options.filter((o) => o.toLowerCase().includes(q) || q === hidden.value.toLowerCase()).map((o) => {
          const li = el("li", { role: "option", "aria-selected": String(o === hidden.value) }, o);
          li.addEventListener("mousedown", (e) => {
            e.preventDefault();
            choose(o);
          });
          return li;
        }),
      );
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    };
    input.addEventListener("focus", render);
    input.addEventListener("click", render);
    input.addEventListener("input", render);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !list.hidden) {
        // Enter picks the first match; with none it must not submit the surrounding form.
        e.preventDefault();
        const first = list.querySelector("li");
        if (first) choose(first.textContent ?? "");
      } else if (e.key === "Escape") list.hidden = true;
    });
    input.addEventListener("blur", () => {
      setTimeout(() => {
        list.hidden = true;
        if (options.includes(input.value)) hidden.value = input.value;
        else input.value = hidden.value;
      }, 100);
    });
    box.replaceChildren(input, list, hidden);
  }

  const iso = (d: Date) => d.toISOString().slice(0, 10);
  for (const input of document.querySelectorAll<HTMLInputElement>("input[data-datepicker]")) {
    input.autocomplete = "off";
    input.placeholder ||= "YYYY-MM-DD";
    const pop = el("div", { class: "datepicker", role: "dialog", "aria-label": "Choose date", hidden: "" });
    input.insertAdjacentElement("afterend", pop);
    let month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const draw = () => {
      const title = el(
        "span",
        { class: "dp-title" },
        month.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" }),
      );
      const prev = el("button", { type: "button", "aria-label": "Previous month" }, "‹");
      const next = el("button", { type: "button", "aria-label": "Next month" }, "›");
      prev.onclick = () => {
        month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 1, 1));
        draw();
      };
      next.onclick = () => {
        month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
        draw();
      };
      const grid = el("div", { class: "dp-grid", role: "grid" });
      for (const d of ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]) grid.append(el("span", { class: "dp-dow" }, d));
      const lead = (month.getUTCDay() + 6) % 7;
      for (let i = 0; i < lead; i++) grid.append(el("span"));
      const days = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
      for (let d = 1; d <= days; d++) {
        const day = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), d));
        const b = el(
          "button",
          { type: "button", "aria-label": iso(day), class: iso(day) === iso(now) ? "today" : "" },
          String(d),
        );
        if (iso(day) === input.value) b.classList.add("selected");
        b.onclick = () => {
          input.value = iso(day);
          input.dispatchEvent(new Event("change", { bubbles: true }));
          pop.hidden = true;
        };
        grid.append(b);
      }
      pop.replaceChildren(el("div", { class: "dp-head" }), grid);
      pop.firstElementChild!.append(prev, title, next);
    };
    input.addEventListener("focus", () => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(input.value)) month = new Date(input.value.slice(0, 8) + "01T00:00:00Z");
      draw();
      pop.hidden = false;
    });
    document.addEventListener("mousedown", (e) => {
      if (e.target !== input && !pop.contains(e.target as Node)) pop.hidden = true;
    });
  }
}
