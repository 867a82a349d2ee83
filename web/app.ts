/**
 * Runs on every page of the web app: `/` (outside a text field) puts the cursor in the search box,
 * as Sourcegraph and GitHub do. Pages work without it.
 */
const box = document.querySelector<HTMLInputElement>('#app-search');

document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || box === null || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement | null;
  if (target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  event.preventDefault();
  box.focus();
  box.select();
});
