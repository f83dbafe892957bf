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
}

export function tryItLines({ apiUrl, financeToken, temporalAddress }: TryItSetup): string[] {
  return [
    ...(temporalAddress ? [`export TEMPORAL_ADDRESS=${temporalAddress}`] : []),
    `export TOKEN=${financeToken ?? '<an API token of a finance approver>'}`,
    'RUN=$(npx hitl start --quiet --agent demo "Refund order 1234 in full")',
    'npx hitl pending $RUN --wait',
    'npx hitl approve $RUN call-2 --as alice --group finance',
    'npx hitl watch $RUN',
    `curl -H "Authorization: Bearer $TOKEN" ${apiUrl}/api/runs/$RUN`,
  ];
}
