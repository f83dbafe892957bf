/** The time left until an approval's deadline, ticking every second. */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

const UNITS = [
  ['days', 86_400_000],
  ['hours', 3_600_000],
  ['minutes', 60_000],
  ['seconds', 1_000],
];
const durationFormat = 'DurationFormat' in Intl ? new Intl.DurationFormat(undefined, { style: 'narrow' }) : undefined;

/** The two most significant units ("2d 3h", "4m 10s"): precise where it matters, short in a list. */
export function formatTimeLeft(ms) {
  let rest = Math.max(0, ms);
  const parts = UNITS.map(([unit, size]) => {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    return [unit, amount];
  });
  const first = parts.findIndex(([, amount]) => amount > 0);
  const shown = first === -1 ? { seconds: 0 } : Object.fromEntries(parts.slice(first, first + 2));
  return durationFormat
    ? durationFormat.format(shown)
    : Object.entries(shown)
        .map(([unit, n]) => `${n}${unit[0]}`)
        .join(' ');
}

function useNow(intervalMs) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** @param {{deadline: string, live?: boolean}} props `live` marks it as the page's timer for assistive technology */
export function Countdown({ deadline, live = false }) {
  const left = Date.parse(deadline) - useNow(1000);
  const urgency = left <= 0 ? 'overdue' : left < 3_600_000 ? 'soon' : '';
  return html`<time
    class=${`countdown ${urgency}`}
    role=${live ? 'timer' : undefined}
    datetime=${deadline}
    title=${`Deadline ${new Date(deadline).toLocaleString()}`}
    >${left > 0 ? `${formatTimeLeft(left)} left` : 'deadline passed'}</time
  >`;
}
