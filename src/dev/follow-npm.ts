/**
 * Under `npm start` (or `npm run worker`, `npm run api`) this process is the child of the shell npm runs the script
 * in. A supervisor that stops the app by signalling npm alone (systemd, pm2, a CI job's timeout) ends npm and that
 * shell, but the shell passes no signal on: this process would keep running, holding its ports and its dev server.
 * So when the parent npm started us under is gone, stop as for SIGTERM: each entry point's own handler drains.
 * Only under npm: a process started another way (a container's `node`, `nohup node …`) keeps its own lifetime.
 */
export function stopWhenNpmStops(options: { intervalMs?: number } = {}): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  // process.ppid asks the OS each time: an orphan is adopted by init or the nearest subreaper.
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, options.intervalMs ?? 1000);
  timer.unref();
}
