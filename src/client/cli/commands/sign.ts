/**
 * `hitl sign`: a short-lived decision token for an operator who decides with the `temporal` CLI, signed with the
 * key in HITL_SIGNING_KEY(_FILE). `hitl sign-request`: the same for who asks, for a run started another way.
 * `hitl keygen`: a new signing key and its public key set.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import ms from 'ms';
import { readEnvConfig } from '../../../config.js';
import { SigningConfigError } from '../../../errors.js';
import { Decision, DECISION_TYPES } from '../../../schemas/decision.js';
import { decisionBinding } from '../../../signing/decision-claims.js';
import { signDecisionToken } from '../../../signing/sign-decision.js';
import { signRequestToken } from '../../../signing/sign-request.js';
import { decisionSignerFromConfig } from '../../../signing/signing-config.js';
import { generateSigningKey, SIGNING_ALGORITHMS } from '../../../signing/signing-key.js';
import { collectIdentities, parseIdentity, parseJson } from '../option-values.js';
import { print } from '../output.js';
import type { RegisterCommand } from './context.js';

function requireSigner() {
  const signer = decisionSignerFromConfig(readEnvConfig());
  if (!signer) throw new SigningConfigError('No signing key: set HITL_SIGNING_KEY or HITL_SIGNING_KEY_FILE (`hitl keygen` makes one).');
  return signer;
}

function seconds(value: string): number {
  const duration = ms(value as ms.StringValue);
  if (typeof duration !== 'number' || !(duration > 0)) throw new InvalidArgumentError('expected a duration such as 90s or 10m');
  return Math.ceil(duration / 1000);
}

export const registerSignCommands: RegisterCommand = (program, ctx) => {
  program
    .command('sign')
    .description('print a short-lived signed decision token, for deciding with the temporal CLI')
    .requiredOption('--workflow-id <id>', 'the run')
    .requiredOption('--call <id>', 'the tool call id')
    .addOption(new Option('--type <type>', 'the decision').choices(DECISION_TYPES).makeOptionMandatory())
    .requiredOption('--args-hash <hash>', 'argsHash of the arguments you saw (hitl pending --json shows it)')
    .requiredOption('--as <approver>', 'who decides', parseIdentity)
    .option('--group <group>', 'a group of the approver (repeatable)', collectIdentities)
    .option('--ttl <duration>', 'how long the token lives (default: 10m)', seconds)
    .option('--args <json>', 'edit: the new arguments', parseJson)
    .option('--name <tool>', 'edit: run this tool instead')
    .option('--message <text>', 'reject: the reason; respond: the result; otherwise a comment')
    .option('--always', 'approve/reject: every later call of this tool in the run')
    .action((opts, command: Command) => {
      const signer = requireSigner();
      const parsed = Decision.safeParse({
        id: opts.call,
        type: opts.type,
        args: opts.args,
        name: opts.name,
        message: opts.message,
        always: opts.always,
        argsHash: opts.argsHash,
      });
      if (!parsed.success) command.error(`error: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      const decision = { ...parsed.data, id: opts.call as string };
      const token = signDecisionToken(signer, {
        binding: decisionBinding(opts.workflowId, opts.argsHash, decision),
        approver: opts.as,
        groups: opts.group,
        now: Date.now(),
        ttlSeconds: opts.ttl ?? 600,
      });
      // With --json, the whole input of the `decide` update: `temporal workflow update execute --name decide --input`.
      print(ctx.out(), { decisions: [{ ...decision, token }] }, () => token);
    });

  program
    .command('sign-request')
    .description('print a short-lived signed request token, for starting a run another way than hitl start or the API')
    .requiredOption('--workflow-id <id>', 'the workflow id the run will start with')
    .requiredOption('--agent <name>', 'its agent')
    .requiredOption('--prompt <text>', 'its prompt, exactly')
    .requiredOption('--as <who>', "who asks (the run's requestedBy)", parseIdentity)
    .option('--ttl <duration>', 'how long the token lives (default: 10m)', seconds)
    .action((opts) => {
      const signer = requireSigner();
      const { workflowId, agent, prompt, as: requestedBy } = opts as Record<string, string>;
      const requestToken = signRequestToken(signer, {
        workflowId,
        agent,
        prompt,
        requestedBy,
        now: Date.now(),
        ttlSeconds: opts.ttl ?? 600,
      });
      // With --json, the start input: `temporal workflow start --type agentWorkflow --workflow-id … --input`.
      print(ctx.out(), { agent, prompt, requestedBy, requestToken }, () => requestToken);
    });

  program
    .command('keygen')
    .description('print a new signing key (for HITL_SIGNING_KEY) and its public key set (for HITL_TRUSTED_JWKS)')
    .addOption(new Option('--alg <alg>', 'signature algorithm').choices(SIGNING_ALGORITHMS).default('EdDSA'))
    .option('--kid <id>', 'key id (default: the key thumbprint); dates read well during rotation, e.g. 2026-07')
    .action((opts) => {
      const { privateJwk, publicJwk } = generateSigningKey(opts.alg, opts.kid);
      const jwks = { keys: [publicJwk] };
      print(ctx.out(), { signingKey: privateJwk, jwks }, () =>
        [
          '# Keep secret: the signer (the API, hitl sign) reads it from HITL_SIGNING_KEY or HITL_SIGNING_KEY_FILE.',
          `HITL_SIGNING_KEY='${JSON.stringify(privateJwk)}'`,
          '# Public: add this key to HITL_TRUSTED_JWKS beside the keys in use before signing with it.',
          `HITL_TRUSTED_JWKS='${JSON.stringify(jwks)}'`,
        ].join('\n'),
      );
    });
};
