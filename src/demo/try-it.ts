/**
 * What `npm start` suggests trying, as commands that run as printed in a second terminal in the checkout:
 * test/readme.test.ts runs them against a live `npm start`, and test/demo-prompts.test.ts runs the demo's
 * suggested prompts end to end.
 */
export interface TryItSetup {
  /** The approval API's base URL. */
  apiUrl: string;
  /** A dev token of a finance approver, when it may be printed (configured tokens are secrets). */
  financeToken?: string;
  /** The Temporal address the CLI must be told, when it is not the CLI's default (localhost:7233). */
  temporalAddress?: string;
  /**
   * Payloads are encrypted: the CLI reads a run only with the same keys. The file that holds them, when they come
   * from one; otherwise the keys are a secret of the shell that ran `npm start`, and the line only names the setting.
   */
  encryption?: { keysFile?: string; keyId?: string };
}

/** A value as one shell word, quoted when it holds anything but plain path characters. */
const shellWord = (value: string) => (/^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

export function tryItLines({ apiUrl, financeToken, temporalAddress, encryption }: TryItSetup): string[] {
  return [
    ...(temporalAddress ? [`export TEMPORAL_ADDRESS=${temporalAddress}`] : []),
    ...(encryption ? encryptionLines(encryption) : []),
    `export TOKEN=${financeToken ?? '<an API token of a finance approver>'}`,
    'RUN=$(npx hitl start --quiet --agent demo "Refund order 1234 in full")',
    'npx hitl pending $RUN --wait',
    'npx hitl approve $RUN call-2 --as alice --group finance',
    'npx hitl watch $RUN',
    `curl -H "Authorization: Bearer $TOKEN" ${apiUrl}/api/runs/$RUN`,
  ];
}

/** The settings that let the CLI read and write encrypted runs; keys given in the shell are not printed. */
function encryptionLines({ keysFile, keyId }: NonNullable<TryItSetup['encryption']>): string[] {
  return [
    keysFile
      ? `export HITL_ENCRYPTION_KEYS_FILE=${shellWord(keysFile)}`
      : "# hitl reads encrypted runs only with the keys this npm start was given: export HITL_ENCRYPTION_KEYS='<the same JSON>'",
    ...(keyId ? [`export HITL_ENCRYPTION_KEY_ID=${shellWord(keyId)}`] : []),
  ];
}
