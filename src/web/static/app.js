// The dashboard's only script, and an optional one: every page works without it.
// It asks before a change that cannot be undone and copies a shown secret to the clipboard.
document.addEventListener('submit', (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy') || '');
  if (source && navigator.clipboard) {
    navigator.clipboard.writeText(source.textContent || '').then(() => { button.textContent = 'Copied'; }, () => {});
  }
});
