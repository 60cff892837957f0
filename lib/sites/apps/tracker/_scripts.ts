/** The page scripts of the board and the backlog: HTML5 drag and drop, persisted with fetch POST. */
import { raw } from "hono/html";

/** Cards (`.kcard[draggable]`) dropped on a column (`.column[data-status]`) POST the new status, then move. */
export const BOARD_SCRIPT = raw(`<script>
(() => {
  const board = document.getElementById("board"), say = document.getElementById("board-status");
  let dragged = null;
  const recount = () => {
    for (const col of board.querySelectorAll(".column")) {
      col.querySelector(".count").textContent = col.querySelectorAll(".kcard").length;
    }
  };
  for (const card of board.querySelectorAll(".kcard")) {
    card.addEventListener("dragstart", (e) => {
      dragged = card;
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", card.dataset.key);
      card.classList.add("dragging");
    });
    card.addEventListener("dragend", () => {
      card.classList.remove("dragging");
      for (const col of board.querySelectorAll(".column")) col.classList.remove("over");
    });
  }
  for (const col of board.querySelectorAll(".column")) {
    // Both dragenter and dragover must be cancelled for the column to accept the drop.
    col.addEventListener("dragenter", (e) => {
      e.preventDefault();
      col.classList.add("over");
    });
    col.addEventListener("dragover", (e) => {
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
      col.classList.add("over");
    });
    col.addEventListener("dragleave", (e) => {
      if (!col.contains(e.relatedTarget)) col.classList.remove("over");
    });
    col.addEventListener("drop", async (e) => {
      e.preventDefault();
      col.classList.remove("over");
      const key = e.dataTransfer.getData("text/plain") || (dragged && dragged.dataset.key);
      const card = key && document.getElementById("card-" + key);
      dragged = null;
      if (!card || card.closest(".column") === col) return;
      const status = col.dataset.status;
      say.textContent = "Moving " + key + "…";
      try {
        const res = await fetch("/tracker/issues/" + encodeURIComponent(key) + "/move", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ status }),
          credentials: "same-origin",
        });
        const out = await res.json();
        if (!res.ok || !out.ok) throw new Error(out.error || res.statusText);
        col.querySelector(".cards").append(card);
        recount();
        say.textContent = key + " moved to " + out.label + ".";
      } catch (err) {
        say.textContent = "Could not move " + key + ": " + err.message;
      }
    });
  }
})();
</script>`);

/**
 * Items (`li[draggable]`) of #backlog-list are dropped onto another item: the dragged item takes that item's place
 * (before it when moving up, after it when moving down). The source stays in place during the drag (moving it
 * would end the browser's drag session); the new order is POSTed on drop.
 */
export const BACKLOG_SCRIPT = raw(`<script>
(() => {
  const list = document.getElementById("backlog-list"), say = document.getElementById("backlog-status");
  const items = () => [...list.querySelectorAll("li[data-key]")];
  let dragged = null;
  const clear = () => items().forEach((li) => li.classList.remove("drop-before", "drop-after"));
  const targetOf = (e) => {
    let li = e.target.closest && e.target.closest("li[data-key]");
    if (!li) {
      const all = items();
      if (all.length && e.clientY > all[all.length - 1].getBoundingClientRect().bottom) li = all[all.length - 1];
    }
    return li && li !== dragged ? li : null;
  };
  const place = (li) => (items().indexOf(dragged) > items().indexOf(li) ? "before" : "after");
  list.addEventListener("dragstart", (e) => {
    const li = e.target.closest && e.target.closest("li[data-key]");
    if (!li) return;
    dragged = li;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", li.dataset.key);
    li.classList.add("dragging");
  });
  list.addEventListener("dragenter", (e) => {
    if (dragged) e.preventDefault();
  });
  list.addEventListener("dragover", (e) => {
    if (!dragged) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    clear();
    const li = targetOf(e);
    if (li) li.classList.add("drop-" + place(li));
  });
  list.addEventListener("dragend", () => {
    clear();
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
  });
  list.addEventListener("drop", async (e) => {
    e.preventDefault();
    const li = dragged && targetOf(e);
    clear();
    if (!li) return;
    const before = items().map((x) => x.dataset.key);
    li.insertAdjacentElement(place(li) === "before" ? "beforebegin" : "afterend", dragged);
    dragged.classList.remove("dragging");
    const key = dragged.dataset.key;
    dragged = null;
    const order = items().map((x) => x.dataset.key);
    items().forEach((x, i) => (x.querySelector(".pos").textContent = i + 1 + "."));
    if (order.join() === before.join()) return;
    say.textContent = "Saving order…";
    try {
      const res = await fetch("/tracker/projects/" + list.dataset.project + "/backlog/order", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ order }),
        credentials: "same-origin",
      });
      const out = await res.json();
      if (!res.ok || !out.ok) throw new Error(out.error || res.statusText);
      say.textContent = key + " is now number " + (order.indexOf(key) + 1) + ". Order saved.";
    } catch (err) {
      say.textContent = "Could not save the order: " + err.message;
    }
  });
})();
</script>`);
