/** A run's own breakpoints against its agent's: what loosens them, and what only tightens. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, type BreakpointSetting, type Interrupts } from '../schemas/agent-options.js';
import { breakpointLoosenings } from './tighten-breakpoints.js';

const REJECT = { agent: 'reject', run: 'reject' } as const;
const loosen = (agent: Interrupts, run: Interrupts, onTimeout: { agent: string; run: string } = REJECT) =>
  breakpointLoosenings(agent, run, onTimeout as typeof REJECT, true);

const careful: Interrupts = { beforeTools: { tools: ['write_file', 'send_email'], approvers: ['editors'] } };

describe('breakpointLoosenings', () => {
  it('refuses switching the agent’s pause off, pausing before fewer tools, other approvers, or continuing unasked', () => {
    expect(loosen(careful, { beforeTools: false })).toEqual(['interrupt.beforeTools: the agent pauses here; a run may not switch it off']);
    expect(loosen(careful, { beforeTools: { tools: ['write_file'], approvers: ['editors'] } })).toEqual([
      'interrupt.beforeTools.tools: the agent pauses before send_email too',
    ]);
    expect(loosen({ afterModel: true }, { afterModel: { tools: ['x'] } })).toEqual([
      'interrupt.afterModel.tools: the agent pauses before every other tool too',
    ]);
    expect(loosen(careful, { beforeTools: true })).toEqual(['interrupt.beforeTools.approvers: the agent allows only editors, not anyone']);
    expect(loosen(careful, { beforeTools: { approvers: ['editors', 'mallory'] } })).toEqual([
      'interrupt.beforeTools.approvers: the agent allows only editors, not mallory',
    ]);
    expect(loosen(careful, { beforeTools: { approvers: ['editors'], onTimeout: 'approve' } })).toEqual([
      'interrupt.beforeTools.onTimeout: a run may not continue past a pause nobody decided',
    ]);
    // A run whose policy continues on timeout where its breakpoint says nothing.
    expect(loosen({ beforeModel: true }, { beforeModel: true }, { agent: 'reject', run: 'approve' })).toEqual([
      'interrupt.beforeModel.onTimeout: a run may not continue past a pause nobody decided',
    ]);
  });

  it('takes tightening: more tools, narrower approvers, a kind, pauses the agent lacks, other timeouts', () => {
    expect(loosen(careful, { beforeTools: { approvers: ['group:editors'], timeout: '1h' } })).toEqual([]);
    expect(loosen(careful, { beforeTools: { tools: ['write_file', 'send_email', 'read_data'], approvers: ['editors'] } })).toEqual([]);
    expect(loosen(careful, { beforeModel: true, afterModel: { onTimeout: 'approve' } })).toEqual([]);
    expect(loosen({ afterModel: { onTimeout: 'approve' } }, { afterModel: true }, { agent: 'approve', run: 'approve' })).toEqual([]);
    expect(loosen({}, { beforeTools: false })).toEqual([]);
  });

  const setting: fc.Arbitrary<BreakpointSetting> = fc.oneof(
    fc.boolean(),
    fc.record(
      {
        tools: fc.uniqueArray(fc.constantFrom('read_data', 'write_file', 'send_email'), { minLength: 1 }),
        approvers: fc.uniqueArray(fc.constantFrom('editors', 'group:editors', 'user:ann', 'ops'), { minLength: 1 }),
        onTimeout: fc.constantFrom('approve' as const, 'reject' as const),
      },
      { requiredKeys: [] },
    ),
  );
  const interrupts: fc.Arbitrary<Interrupts> = fc.record(
    { beforeModel: setting, afterModel: setting, beforeTools: setting },
    { requiredKeys: [] },
  );
  const timeouts = fc.record({ agent: fc.constantFrom('approve', 'reject'), run: fc.constantFrom('approve', 'reject') });

  it('never finds a loosening in the agent’s own breakpoints, nor where the agent has none', () => {
    fc.assert(
      fc.property(interrupts, timeouts, (agent, onTimeout) => {
        const same = breakpointLoosenings(agent, agent, { agent: onTimeout.agent, run: onTimeout.agent } as typeof REJECT, true);
        const none = breakpointLoosenings({}, agent, onTimeout as typeof REJECT, true);
        return same.length === 0 && none.length === 0;
      }),
    );
  });

  it('always finds one when a run switches off a pause the agent has', () => {
    fc.assert(
      fc.property(interrupts, fc.constantFrom(...BREAKPOINTS), (agent, kind) => {
        fc.pre(Boolean(agent[kind]));
        return breakpointLoosenings(agent, { ...agent, [kind]: false }, REJECT, true).length > 0;
      }),
    );
  });
});
