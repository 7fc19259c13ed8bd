// poststore serve's pages (PageAsset.script): lists and posts follow the store; with writes on, edits use If-Match.
"use strict";
(() => {
  const main = document.querySelector("main");
  const notice = document.getElementById("notice");
  if (!main || !notice) return;
  const say = (text, kind) => {
    notice.className = "notice" + (kind ? " " + kind : "");
    notice.textContent = text;
  };
  let dirty = false;
  // While this page's own save is on its way, the events it causes are its own: not news.
  let saving = false;
  let conflict = false;
  let gone = false;
  // The edit form's values as the page filled them: a field whose value is still this one was not edited.
  const shownValues = new Map();
  const remember = () => {
    const form = document.querySelector("form.edit");
    if (!form) return;
    for (const name of ["title", "body", "userId"]) shownValues.set(name, form.elements.namedItem(name).value);
  };
  remember();
  const plural = (count, word) => count + " " + word + (count === 1 ? "" : "s");
  // What has the keyboard's focus in a region about to be replaced, to give it to its copy in the new one.
  const focusables = (region) => [...region.querySelectorAll("a[href], button, input, textarea, select")];
  // The elements of the same kind and address: a row's link is found again by its post's address.
  const twins = (all, tag, href) => all.filter((element) => element.tagName === tag && element.getAttribute("href") === href);
  const focusIn = (region) => {
    const active = document.activeElement;
    if (!active || !region.contains(active)) return null;
    const all = focusables(region);
    const href = active.getAttribute("href");
    const twin = twins(all, active.tagName, href).indexOf(active);
    return { tag: active.tagName, href, twin, position: all.indexOf(active) };
  };
  const refocus = (region, focus) => {
    if (!focus) return;
    const all = focusables(region);
    const same = twins(all, focus.tag, focus.href);
    const target = same[focus.twin] || same[0] || all[Math.min(focus.position, all.length - 1)];
    if (target) target.focus({ preventScroll: true });
  };
  const refresh = async () => {
    const answer = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (answer.status === 404) gone = true;
    if (!answer.ok) return false;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.getElementById("live");
    const live = document.getElementById("live");
    if (!fresh || !live) return false;
    const focus = focusIn(live);
    const copy = document.importNode(fresh, true);
    live.replaceWith(copy);
    refocus(copy, focus);
    const freshMain = page.querySelector("main");
    if (freshMain && freshMain.dataset.etag) main.dataset.etag = freshMain.dataset.etag;
    // The form edits the version its ETag names: its fields follow that version until the user types.
    const form = document.querySelector("form.edit");
    const freshForm = page.querySelector("form.edit");
    if (form && freshForm && !dirty) {
      for (const name of ["title", "body", "userId"]) {
        form.elements.namedItem(name).value = freshForm.elements.namedItem(name).value;
      }
      remember();
    }
    return true;
  };
  const key = (post) => JSON.stringify([post.userId, post.title, post.body]);
  const follow = (address, onChange) => {
    if (!window.EventSource || !address) return;
    let before = null;
    const events = new EventSource(address);
    // Marks the page as following the store (what a test waits for before it changes the store).
    events.onopen = () => { main.dataset.following = "true"; };
    events.onmessage = (event) => {
      let posts;
      try { posts = JSON.parse(event.data); } catch { return; }
      const now = new Map(posts.map((post) => [post.id, key(post)]));
      const first = before === null;
      const was = before || new Map();
      before = now;
      // The first event is the list as the page shows it when its revision is the page's (a store that
      // keeps no revision gives none: its first event is taken as the page's).
      if (first && (main.dataset.revision === undefined || event.lastEventId === main.dataset.revision)) return;
      let added = 0, changed = 0, removed = 0;
      for (const [id, text] of now) {
        if (!was.has(id)) added += 1; else if (was.get(id) !== text) changed += 1;
      }
      for (const id of was.keys()) if (!now.has(id)) removed += 1;
      if (first) { added = 0; removed = 0; changed = 0; }
      onChange({ added, changed, removed, first });
    };
  };
  const time = () => new Date().toISOString().slice(11, 19) + " UTC";
  try {
    const left = sessionStorage.getItem("poststore-notice");
    if (left) { sessionStorage.removeItem("poststore-notice"); say(left, "ok"); }
  } catch {}
  if (main.dataset.live) {
    follow(main.dataset.live, async (change) => {
      const count = () => document.querySelector(".facts dd")?.textContent;
      const countBefore = count();
      if (!(await refresh())) return;
      // The rows are the page's: a post that came onto it may have moved from the next page, not been added.
      const parts = [];
      if (change.changed) parts.push(plural(change.changed, "post") + " changed");
      if (change.added) parts.push(plural(change.added, "post") + " came onto this page");
      if (change.removed) parts.push(plural(change.removed, "post") + " left it");
      if (parts.length) say("The store changed at " + time() + ": " + parts.join(", ") + ".");
      else if (change.first || count() !== countBefore) say("The store changed at " + time() + ".");
      // The page's posts and the store's count are as they were: what changed is the last sync's record.
      else say("A sync was recorded at " + time() + "; nothing on this page changed.");
    });
  }
  const form = document.querySelector("form.edit");
  const isDeleted = async () => (await fetch(location.href, { method: "HEAD", cache: "no-store" })).status === 404;
  // A deleted post's page keeps its text to read and copy; its buttons no longer act.
  const goneForGood = () => {
    for (const button of document.querySelectorAll("form.edit button")) button.disabled = true;
  };
  if (main.dataset.post) {
    follow("/posts?id=" + encodeURIComponent(main.dataset.post), async () => {
      if (saving) return;
      if (dirty) {
        // A refused save already said so, and how to go on.
        if (conflict) return;
        if (await isDeleted()) {
          goneForGood();
          say("Someone deleted this post while you were editing it: it cannot be saved. "
            + "Copy your text if you need it.", "error");
        } else {
          say("Someone changed this post while you were editing it: saving will be refused. "
            + "Copy your text, then reload.", "error");
        }
        return;
      }
      // This page's own save moved its ETag already: the post is as the page shows it.
      const shown = main.dataset.etag;
      if ((await refresh()) && main.dataset.etag !== shown) say("This post changed at " + time() + ".");
      else if (gone) {
        goneForGood();
        say("This post was deleted at " + time() + ".", "error");
      }
    });
  }
  if (!form) return;
  form.hidden = false;
  form.addEventListener("input", () => { dirty = true; });
  const field = (name) => form.elements.namedItem(name);
  const send = async (method, body) => {
    const headers = { "If-Match": main.dataset.etag };
    if (body) headers["Content-Type"] = "application/json";
    const answer = await fetch("/posts/" + encodeURIComponent(main.dataset.post), {
      method, headers, body: body ? JSON.stringify(body) : undefined,
    });
    if (answer.status === 412) {
      conflict = true;
      if (await isDeleted()) {
        goneForGood();
        say("Someone deleted this post since you opened it, so nothing was saved.", "error");
      } else {
        say("Someone else changed this post since you opened it, so nothing was saved. "
          + "Reload to see their version, then make your change again.", "error");
      }
      return null;
    }
    if (!answer.ok) {
      let reason = answer.status + " " + answer.statusText;
      try { reason = (await answer.json()).error || reason; } catch {}
      say("Not saved: " + reason, "error");
      return null;
    }
    return answer;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // Only the fields the user changed are sent (PATCH): the others keep their stored text exactly, which
    // the form cannot always hold (a control character is shown as its picture, a CR LF as a line feed).
    const changes = {};
    for (const name of ["title", "body"]) {
      const input = field(name);
      if (input.value !== shownValues.get(name)) changes[name] = input.value;
    }
    const user = field("userId");
    if (user.value !== shownValues.get("userId")) {
      const userId = Number(user.value);
      if (user.value.trim() === "" || !Number.isInteger(userId)) {
        say("The user must be a whole number.", "error");
        return;
      }
      changes.userId = userId;
    }
    if (Object.keys(changes).length === 0) { say("Nothing to save: no field was changed."); return; }
    saving = true;
    try {
      if (!(await send("PATCH", changes))) return;
      dirty = false;
      // The page's post and ETag (the form the page sends, whatever the answer's encoding) as saved.
      await refresh();
    } finally {
      saving = false;
    }
    say("Saved at " + time() + ".", "ok");
  });
  const remove = document.getElementById("delete");
  if (remove) {
    remove.addEventListener("click", async () => {
      if (!confirm("Delete post " + main.dataset.post + "?")) return;
      saving = true;
      if (!(await send("DELETE"))) { saving = false; return; }
      // The list says so once it has loaded.
      try { sessionStorage.setItem("poststore-notice", "Post " + main.dataset.post + " was deleted."); } catch {}
      location.assign("/posts");
    });
  }
})();
