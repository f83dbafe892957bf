import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../schemas/approval-policy.js';
import { mergePolicy } from './merge-policy.js';

const agent = ApprovalPolicy.parse({
  tools: {
    process_refund: { approvers: ['finance'], allowedDecisions: ['approve', 'reject'], when: { arg: 'amount', op: 'gt', value: 100 } },
    'fs__write_*': { approvers: ['ops'] },
    read_data: false,
  },
  default: { approvers: ['admins'] },
});

describe('mergePolicy', () => {
  it("lays a run's entry over the agent's for the tool, field by field", () => {
    const merged = mergePolicy(agent, { tools: { process_refund: { timeout: '1h' } } });
    expect(merged.tools.process_refund).toEqual({ ...(agent.tools.process_refund as object), timeout: '1h' });
  });

  it("lays it over the pattern's entry or the default that the tool had", () => {
    const merged = mergePolicy(agent, { tools: { fs__write_file: { requiredApprovals: 2 }, send_email: { timeout: '1h' } } });
    expect(merged.tools.fs__write_file).toEqual({ approvers: ['ops'], requiredApprovals: 2 });
    expect(merged.tools.send_email).toEqual({ approvers: ['admins'], timeout: '1h' });
  });

  it('replaces with true, false, an entry for a pattern, or over an entry that is not an object', () => {
    const merged = mergePolicy(agent, { tools: { process_refund: true, 'fs__*': { timeout: '1h' }, read_data: { approvers: ['x'] } } });
    expect(merged.tools.process_refund).toBe(true);
    expect(merged.tools['fs__*']).toEqual({ timeout: '1h' });
    expect(merged.tools.read_data).toEqual({ approvers: ['x'] });
  });

  it('replaces every entry for runs from before patch set 23', () => {
    expect(mergePolicy(agent, { tools: { process_refund: { timeout: '1h' } } }, false).tools.process_refund).toEqual({ timeout: '1h' });
  });
});
