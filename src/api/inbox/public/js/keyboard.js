/** Single-key shortcuts (j/k/a/e/r) that stay out of the way while the user types. */
import { useEffect, useRef } from 'preact/hooks';

const TEXT_ENTRY =
  'textarea, select, [contenteditable], input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])';

/** @param {Record<string, () => void>} bindings by `KeyboardEvent.key` */
export function useShortcuts(bindings) {
  const latest = useRef(bindings);
  latest.current = bindings;

  useEffect(() => {
    const onKeyDown = (event) => {
      // A key held down repeats: one press is one action, or holding `a` approves call after call as they come up.
      if (event.repeat || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.target instanceof Element && event.target.closest(TEXT_ENTRY)) return;
      const action = latest.current[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
