import { describe, expect, it } from 'vitest';
import {
  AREAS,
  BasketSchema,
  EMPTY_BASKET,
  PAPER_SIZE_CODES,
  TokenRequestSchema,
  buildPath,
  calls,
  clearBasketCall,
} from './index.js';

describe('contracts', () => {
  it('gives every call a unique name and a unique method + path', () => {
    const all = Object.values(calls);
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
    expect(new Set(all.map((c) => `${c.method} ${c.path}`)).size).toBe(all.length);
  });

  it('keeps SPEC §7 paths and methods exactly', () => {
    expect([calls.token.method, calls.token.path, calls.token.encoding]).toEqual([
      'POST',
      '/oauth/oauth/token',
      'form',
    ]);
    expect([calls.signout.method, calls.signout.path]).toEqual(['DELETE', '/oauth/signout']);
    expect([calls.classList.method, calls.classList.path, calls.classList.encoding]).toEqual([
      'GET',
      '/system/class',
      'query',
    ]);
    expect([calls.updateClassDefault.method, calls.updateClassDefault.encoding]).toEqual(['PUT', 'form']);
    expect(calls.getQuestionBasket.path).toBe('/teacher/paper/info/getQuestionBasket');
    expect([calls.addBasket.method, calls.addBasket.encoding]).toEqual(['POST', 'json']);
    expect(buildPath(clearBasketCall.path, { id: 'p1' })).toBe('/teacher/paper/info/p1/clearBasket');
    expect(buildPath(calls.delQuestionType.path, { id: 'r/1' })).toBe(
      '/teacher/paper/question/type/delQuestion/r%2F1',
    );
  });

  it('refuses to build a path with a missing parameter', () => {
    expect(() => buildPath(clearBasketCall.path, {})).toThrow('missing path parameter id');
  });

  it('answers clearBasket with the basket in message', () => {
    const parsed = clearBasketCall.response.parse({ code: 200, message: EMPTY_BASKET, data: null });
    expect(BasketSchema.parse(parsed.message)).toEqual(EMPTY_BASKET);
  });

  it('tells the two token grants apart and names the missing username in Chinese', () => {
    expect(TokenRequestSchema.parse({ grant_type: 'refresh_token', refresh_token: 'r' }).grant_type).toBe(
      'refresh_token',
    );
    const result = TokenRequestSchema.safeParse({ grant_type: 'password', username: '', password: 'x' });
    expect(result.error?.issues[0]?.message).toBe('请输入用户名');
  });

  it('holds SPEC §3 constants: paper-size codes and the 36 areas', () => {
    expect(PAPER_SIZE_CODES).toEqual({ A4: 1, A3: 11, B5: 2, B4: 6, '16k': 0 });
    expect(AREAS).toHaveLength(36);
    expect(AREAS[0]).toBe('全国');
    expect(AREAS.at(-1)).toBe('其他');
  });
});
