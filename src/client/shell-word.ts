/**
 * A word for a shell command line that the shell passes on as it is. Advice the CLI prints holds commands a reader
 * pastes, and a workflow id is its starter's to choose: `x; rm -rf ~` or `$(…)` must reach the command as text.
 * Plain words stay bare, so the usual command reads as one would type it.
 */
export function shellWord(word: string): string {
  if (/^[\w./:@%+=,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
