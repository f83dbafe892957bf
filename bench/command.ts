/** How a bench command ends: its exit code says whether it worked (worker and peer children do not keep it alive). */
export function runCommand(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
