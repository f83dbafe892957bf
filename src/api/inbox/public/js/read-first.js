/**
 * A call's buttons take a click (and `a` a press) once they have been on screen a moment. After a decision the next
 * call comes up under the same button and key: a double click or a second press must not decide a call nobody read.
 */
import { useEffect, useState } from 'preact/hooks';

/** How long a call's buttons are on screen before they work (the README's inbox section says so). */
const READ_FIRST_MS = 1000;

/**
 * Whether the selected call's buttons have been shown long enough to take a decision.
 * @param {string | undefined} selectedId
 * @param {boolean} shown whether its buttons are on screen (the run is known and not stuck)
 */
export function useReadFirst(selectedId, shown) {
  const [readable, setReadable] = useState(false);
  useEffect(() => {
    setReadable(false);
    if (!shown) return;
    const timer = setTimeout(() => setReadable(true), READ_FIRST_MS);
    return () => clearTimeout(timer);
  }, [selectedId, shown]);
  return readable;
}
