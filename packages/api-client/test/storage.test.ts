import { describe, expect, it } from 'vitest';
import { createApiClient, createMemoryBacking, createStorage, SessionStore } from '../src/index.js';

describe('JSON storage (SPEC §9)', () => {
  it('stores values as JSON text and reads them back parsed', () => {
    const backing = createMemoryBacking();
    const storage = createStorage(backing);
    storage.set('user', { username: '王老师', n: 1 });
    storage.set('expires_at', 1_700_000_000_000);
    storage.set('access_token', 'abc');
    expect(backing.map.get('user')).toBe('{"username":"王老师","n":1}');
    expect(backing.map.get('access_token')).toBe('"abc"');
    expect(storage.get('user')).toEqual({ username: '王老师', n: 1 });
    expect(storage.get('expires_at')).toBe(1_700_000_000_000);
    expect(storage.get('access_token')).toBe('abc');
  });

  it('reads a missing key as an empty object', () => {
    const storage = createStorage(createMemoryBacking());
    expect(storage.get('nothing')).toEqual({});
  });

  it('reads an unparsable value or a stored null as an empty object', () => {
    const storage = createStorage(createMemoryBacking({ broken: '{not json', nil: 'null' }));
    expect(storage.get('broken')).toEqual({});
    expect(storage.get('nil')).toEqual({});
  });

  it('keeps falsy JSON values other than null', () => {
    const storage = createStorage(createMemoryBacking());
    storage.set('zero', 0);
    storage.set('no', false);
    storage.set('empty', '');
    expect(storage.get('zero')).toBe(0);
    expect(storage.get('no')).toBe(false);
    expect(storage.get('empty')).toBe('');
  });

  it('removes a key on set(undefined) and on remove(), and empties everything on clear()', () => {
    const backing = createMemoryBacking();
    const storage = createStorage(backing);
    storage.set('a', 1);
    storage.set('b', 2);
    storage.set('c', 3);
    storage.set('a', undefined);
    storage.remove('b');
    expect([...backing.map.keys()]).toEqual(['c']);
    storage.clear();
    expect(backing.map.size).toBe(0);
  });

  it('reads as an empty object when the backing store throws (e.g. storage disabled)', () => {
    const storage = createStorage({
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
      removeItem: () => undefined,
      clear: () => undefined,
    });
    expect(storage.get('user')).toEqual({});
  });
});

describe('signed-in rule (SPEC §2)', () => {
  const user = {
    id: 'u1',
    username: 'demo-teacher',
    nickname: '王老师',
    avatar: null,
    phone: null,
    orgLogo: null,
    logoPath: null,
    orgName: '演示学校',
    orgDefaultId: 'o1',
    gradeDirector: false,
    isCreator: false,
    isAdministrator: false,
    orgs: [],
  };

  function clientWith(values: Record<string, unknown>) {
    const storage = createStorage(createMemoryBacking());
    for (const [k, v] of Object.entries(values)) storage.set(k, v);
    return createApiClient({ baseUrl: 'http://127.0.0.1:9', storage });
  }

  it('is signed in with an access token and a non-empty user record', () => {
    expect(clientWith({ access_token: 't', user }).isSignedIn()).toBe(true);
  });

  it('is signed out without an access token', () => {
    expect(clientWith({ user }).isSignedIn()).toBe(false);
    expect(clientWith({ access_token: '', user }).isSignedIn()).toBe(false);
  });

  it('is signed out without a user record or with an empty one', () => {
    expect(clientWith({ access_token: 't' }).isSignedIn()).toBe(false);
    expect(clientWith({ access_token: 't', user: {} }).isSignedIn()).toBe(false);
  });

  it('merges user and grade info into one stored record, and computes expiry from expires_in', () => {
    const storage = createStorage(createMemoryBacking());
    const session = new SessionStore(storage, () => 1_000_000);
    session.saveTokens({ access_token: 'a', refresh_token: 'r', expires_in: 600 });
    const { orgDefaultId, gradeDirector, isCreator, isAdministrator, orgs, ...record } = user;
    session.saveUser({
      user: record,
      gradeInfo: { orgDefaultId, gradeDirector, isCreator, isAdministrator },
      orgs,
    });
    expect(storage.get('access_token')).toBe('a');
    expect(storage.get('refresh_token')).toBe('r');
    expect(storage.get('expires_at')).toBe(1_000_000 + 600_000);
    expect(storage.get('user')).toEqual(user);
    expect(session.isSignedIn()).toBe(true);
    session.clearSession();
    expect(session.snapshot()).toEqual({
      accessToken: null,
      refreshToken: null,
      expiresAt: null,
      user: null,
    });
  });

  it('keeps the keys keepOnClear names (the scan-agent pairing of the device) through clear(), the session goes', () => {
    const backing = createMemoryBacking();
    const storage = createStorage(backing, { keepOnClear: (key) => key.startsWith('scanAgentToken:') });
    storage.set('access_token', 'abc');
    storage.set('user', { username: '王老师' });
    storage.set('scanAgentToken:http://127.0.0.1:17310', 'paired');
    storage.clear();
    expect([...backing.map.keys()]).toEqual(['scanAgentToken:http://127.0.0.1:17310']);
    expect(storage.get('scanAgentToken:http://127.0.0.1:17310')).toBe('paired');
  });
});
