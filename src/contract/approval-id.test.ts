/** Approval ids are written in runs (webhook events) and read by clients: both ways must agree with Buffer's base64url. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeApprovalId, encodeApprovalId } from './approval-id.js';

const name = fc.string({ minLength: 1, unit: 'grapheme' });
const bufferId = (workflowId: string, callId: string) => Buffer.from(JSON.stringify([workflowId, callId])).toString('base64url');

describe('approval ids', () => {
  it('are the bytes of Buffer base64url, and read back as written', () => {
    fc.assert(
      fc.property(name, name, (workflowId, callId) => {
        const id = encodeApprovalId({ workflowId, callId });
        expect(id).toBe(bufferId(workflowId, callId));
        expect(decodeApprovalId(id)).toEqual({ workflowId, callId });
      }),
    );
  });

  it('read padded and standard-alphabet forms as Buffer did (Python urlsafe_b64encode pads)', () => {
    fc.assert(
      fc.property(name, name, (workflowId, callId) => {
        const padded = Buffer.from(JSON.stringify([workflowId, callId])).toString('base64');
        expect(decodeApprovalId(padded)).toEqual({ workflowId, callId });
        expect(decodeApprovalId(padded.replace(/\+/g, '-').replace(/\//g, '_'))).toEqual({ workflowId, callId });
      }),
    );
  });

  it('refuses what is not one of ours', () => {
    for (const id of ['', 'a', '%%%', 'not an id', bufferId('', 'x').slice(0, -1) + '!', Buffer.from('[1,2]').toString('base64url')])
      expect(decodeApprovalId(id)).toBeUndefined();
    expect(decodeApprovalId(Buffer.from('["w",""]').toString('base64url'))).toBeUndefined();
    // Bytes that are not UTF-8 are refused, not read with replacement characters.
    expect(decodeApprovalId(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x2c, 0x22, 0x61, 0x22, 0x5d]).toString('base64url'))).toBeUndefined();
  });
});
