/** Loads something now and again every few seconds, so new approvals appear and decided ones leave without a reload. */
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * @param {() => Promise<unknown>} load
 * @param {number} intervalMs the pause between one answer and the next request (requests never overlap)
 * @param {unknown[]} deps restart from scratch when these change (e.g. the filters)
 */
export function usePolling(load, intervalMs, deps) {
  const [state, setState] = useState({ data: undefined, error: undefined });
  const [restarts, setRestarts] = useState(0);
  const latestLoad = useRef(load);
  latestLoad.current = load;

  // New deps (other filters) mean another list: forget the old one rather than show it as current.
  useEffect(() => setState({ data: undefined, error: undefined }), deps);

  useEffect(() => {
    let stopped = false;
    let timer;
    const tick = async () => {
      try {
        const data = await latestLoad.current();
        if (!stopped) setState({ data, error: undefined });
      } catch (error) {
        // Keep showing the last good list; the error is reported next to it.
        if (!stopped) setState((previous) => ({ data: previous.data, error }));
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [...deps, restarts, intervalMs]);

  return { ...state, refresh: () => setRestarts((n) => n + 1) };
}
