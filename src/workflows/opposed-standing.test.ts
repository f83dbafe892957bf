import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../tools/registry.js';
import { pendingApproval as pending } from '../../test/helpers/pending-approval.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const ctx: PlanContext = {
  pending: [
    pending('a', 'write_file', { path: 'a', content: 'x' }),
    pending('c', 'execute_sql', { query: 'SELECT 1' }),
    pending('d', 'write_file', { path: 'd', content: 'y' }),
  ],
  decided: new Map(),
  available: ['write_file', 'execute_sql'],
  specs: toolSpecs,
  refusesOpposedAlways: true,
};
const always = (id: string, type: 'approve' | 'reject') => ({ id, type, always: true });

describe('opposed standing decisions', () => {
  it('refuses "always approve" and "always reject" for one tool in one input', () => {
    const refused = planDecisions({ decisions: [always('a', 'approve'), always('d', 'reject')] }, ctx);
    expect(!refused.ok && [refused.error.code, refused.error.message]).toEqual([
      'decision_not_allowed',
      'This input decides write_file both "always approve" and "always reject": send one standing decision for a tool.',
    ]);
  });

  it('takes the same standing decision twice, opposite ones for two tools, and the pair in a run before the rule', () => {
    expect(planDecisions({ decisions: [always('a', 'approve'), always('d', 'approve')] }, ctx).ok).toBe(true);
    expect(planDecisions({ decisions: [always('a', 'approve'), always('c', 'reject')] }, ctx).ok).toBe(true);
    // Calls of two sub-agents: two runs, each with its own standing decision for the tool.
    const children = {
      ...ctx,
      pending: [
        pending('call-1/call-1', 'write_file', { path: 'a', content: 'x' }, { subAgentWorkflowId: 'p/call-1' }),
        pending('call-2/call-1', 'write_file', { path: 'b', content: 'y' }, { subAgentWorkflowId: 'p/call-2' }),
      ],
    };
    expect(planDecisions({ decisions: [always('call-1/call-1', 'approve'), always('call-2/call-1', 'reject')] }, children).ok).toBe(true);
    const before = { ...ctx, refusesOpposedAlways: false };
    expect(planDecisions({ decisions: [always('a', 'approve'), always('d', 'reject')] }, before).ok).toBe(true);
  });
});
