import { PmError, ConflictError, PmMcpInvalidParamsError, PmMcpResourceNotFoundError, PmMcpUnsupportedProtocolVersionError, ValidationError } from '../../../../src/domain/errors/index.js';
import { toMcpJsonRpcError } from '../../../../src/domain/mcp/index.js';
import { expectValidMcpMessage } from '../../../support/mcp-schema.js';

describe('toMcpJsonRpcError (the one error mapper)', () => {
  test('protocol errors keep the spec data shape exactly', () => {
    expect(toMcpJsonRpcError(new PmMcpUnsupportedProtocolVersionError('x', ['2026-07-28']), 'modern')).toEqual({ code: -32022, message: expect.any(String), data: { supported: ['2026-07-28'], requested: 'x' } });
    expect(toMcpJsonRpcError(new PmMcpInvalidParamsError('bad'), 'modern')).toEqual({ code: -32602, message: 'bad' });
  });
  test('legacy-only codes apply on the legacy path only', () => {
    expect(toMcpJsonRpcError(new PmMcpResourceNotFoundError('a://b'), 'modern').code).toBe(-32602);
    expect(toMcpJsonRpcError(new PmMcpResourceNotFoundError('a://b'), 'legacy').code).toBe(-32002);
  });
  test('tracker errors keep their application code (outside the reserved block), reason and data', () => {
    expect(toMcpJsonRpcError(new ValidationError('no', { field: 'f' }), 'modern')).toEqual({ code: -32602, message: 'no', data: { reason: 'invalid_input', field: 'f' } });
    const conflict = new ConflictError('claimed', 'claimed', { id: 'PM-1' });
    const modern = toMcpJsonRpcError(conflict, 'modern');
    expect(modern).toEqual({ code: -31050, message: 'claimed', data: { reason: 'claimed', id: 'PM-1' } });
    expectValidMcpMessage({ jsonrpc: '2.0', id: 1, error: modern }, '2026-07-28');
    expect(toMcpJsonRpcError(conflict, 'legacy').code).toBe(-31050);
  });
  test('an undefined code from the reserved -32000..-32099 block becomes -32603 on the modern path', () => {
    class Reserved extends PmError { readonly jsonRpcCode = -32077; readonly reason = 'odd'; readonly exitCode = 1; }
    expect(toMcpJsonRpcError(new Reserved('x'), 'modern')).toEqual({ code: -32603, message: 'x', data: { reason: 'odd', pmCode: -32077 } });
    expect(toMcpJsonRpcError(new Reserved('x'), 'legacy').code).toBe(-32077);
  });
  test('unknown throws become a generic -32603', () => {
    expect(toMcpJsonRpcError(new Error('db password is hunter2'), 'modern')).toEqual({ code: -32603, message: 'Internal error' });
    expect(toMcpJsonRpcError('string thrown', 'legacy')).toEqual({ code: -32603, message: 'Internal error' });
  });
});
