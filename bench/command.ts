import { NODE_MODULES, refuseChangedSdk } from './installed-sdk.js';

/**
 * How a bench command ends: its exit code says whether it worked (worker and peer children do not keep it alive).
 * A command that measures first refuses a Temporal SDK changed since it was installed (installed-sdk.ts).
 */
export function runCommand(main: () => Promise<void>, { measures = true }: { measures?: boolean } = {}): void {
  Promise.resolve()
    .then(() => {
      if (measures) refuseChangedSdk(NODE_MODULES);
      return main();
    })
    .then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
}
