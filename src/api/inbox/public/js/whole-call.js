/**
 * Lists cut large arguments to a preview (`argumentsTruncated`): the call shown is fetched whole, and nothing is
 * decided on the preview. A fetch that fails is said, and tried again: until it succeeds, the call cannot be decided.
 */
import { useEffect, useState } from 'preact/hooks';

const RETRY_MS = 2000;

/**
 * @param {ReturnType<import('./api.js').createApi>} api
 * @param {any} selected the call as listed
 * @returns {{shown: any, failure?: {headline: string, detail: string}}} the call to show, whole once fetched, and why it is not yet
 */
export function useWholeCall(api, selected) {
  const [whole, setWhole] = useState(undefined);
  const cutId = selected?.argumentsTruncated ? selected.id : undefined;
  useEffect(() => {
    if (!cutId) return;
    let stopped = false;
    let retry;
    const load = () =>
      api.approvalWhole(cutId).then(
        (call) => !stopped && setWhole(call),
        (error) => {
          if (stopped) return;
          setWhole({ id: cutId, failed: error });
          retry = setTimeout(load, RETRY_MS);
        },
      );
    load();
    return () => {
      stopped = true;
      clearTimeout(retry);
    };
  }, [api, cutId]);
  if (!cutId || whole?.id !== cutId) return { shown: selected };
  if (!whole.failed) return { shown: { ...selected, arguments: whole.arguments, argumentsTruncated: undefined } };
  return {
    shown: selected,
    failure: {
      headline: 'Only a preview of these arguments is here, so this call cannot be decided yet: loading it whole failed. Trying again.',
      detail: `${whole.failed.status ? `HTTP ${whole.failed.status}: ` : ''}${whole.failed.message}`,
    },
  };
}
