import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import { readJson, readUrlEncoded, strictBodies } from './body';
import { createErrorHandler } from './errors';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const app = new Hono();
app.use(requestId());
app.onError(createErrorHandler(silent));
app.use(strictBodies());
app.post('/json', async (c) => c.json({ received: await c.req.json() }));
app.post('/text', async (c) => c.json({ received: await c.req.text() }));
app.post('/form', async (c) => c.json({ received: await readUrlEncoded(c) }));
app.post('/read-json', async (c) => c.json({ received: await readJson(c) }));

async function post(path: string, type: string, body: string | Uint8Array) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('strictBodies', () => {
  it.each([
    ['charset=utf-16', 'application/json; charset=utf-16'],
    ['charset=UTF-16LE', 'application/json;charset=UTF-16LE'],
    ['charset=iso-8859-1', 'application/json; charset=iso-8859-1'],
    ['an unknown charset', 'application/json; charset=klingon'],
  ])('refuses a JSON body declared in %s', async (_name, type) => {
    const reply = await post('/json', type, '{"a":"b"}');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ path: 'content-type', code: 'invalid_charset' }] },
    });
  });

  it.each([
    ['charset=utf-8', 'application/json; charset=utf-8'],
    ['charset="UTF-8"', 'application/json;charset="UTF-8"'],
    ['charset=utf8', 'application/json; charset=utf8'],
    ['no charset', 'application/json'],
    ['a +json type', 'application/merge-patch+json'],
  ])('reads a UTF-8 JSON body declared with %s', async (_name, type) => {
    const reply = await post('/json', type, utf8('{"name":"Zoë 😀"}'));
    expect(reply).toEqual({ status: 200, body: { received: { name: 'Zoë 😀' } } });
  });

  it.each([
    ['a lone continuation byte', bytes(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d)],
    ['a truncated sequence', bytes(0x22, 0xe2, 0x82, 0x22)],
    ['an overlong encoding', bytes(0x22, 0xc0, 0xaf, 0x22)],
    ['an encoded surrogate', bytes(0x22, 0xed, 0xa0, 0x80, 0x22)],
    ['0xFF', bytes(0x22, 0xff, 0x22)],
  ])('refuses JSON with %s (not UTF-8)', async (_name, body) => {
    const reply = await post('/json', 'application/json', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ code: 'invalid_encoding' }] },
    });
  });

  it.each([
    ['a lone high surrogate', '{"name":"a\\ud800b"}', 'name'],
    ['a lone low surrogate', '{"name":"\\udc00"}', 'name'],
    ['a reversed pair', '["\\udc00\\ud800"]', '0'],
    ['a lone surrogate in a key', '{"\\ud800":1}', '\ud800'],
    ['a lone surrogate deep inside', '{"lines":[{"notes":["ok","\\uDBFF"]}]}', 'lines.0.notes.1'],
  ])('refuses JSON holding %s, naming where', async (_name, text, path) => {
    const reply = await post('/json', 'application/json', text);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'json', code: 'invalid_string', path }] },
    });
  });

  it('keeps escaped pairs, escaped backslashes and a leading BOM', async () => {
    const text = '\ufeff{"emoji":"\\ud83d\\ude00","literal":"\\\\ud800"}';
    const reply = await post('/json', 'application/json', utf8(text));
    expect(reply).toEqual({
      status: 200,
      body: { received: { emoji: '😀', literal: '\\ud800' } },
    });
  });

  it('parses once: the handler and readJson see the same value', async () => {
    const reply = await post('/read-json', 'application/json', '{"n":1}');
    expect(reply).toEqual({ status: 200, body: { received: { n: 1 } } });
  });

  it('refuses a form whose percent-escapes are not UTF-8, reads a good one', async () => {
    const bad = await post('/form', 'application/x-www-form-urlencoded', 'name=%FF&x=1');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ params: { issues: [{ code: 'invalid_encoding' }] } });
    const good = await post('/form', 'application/x-www-form-urlencoded', 'name=Zo%C3%AB+M&x=1');
    expect(good).toEqual({ status: 200, body: { received: { name: 'Zoë M', x: '1' } } });
  });

  it('refuses a form declared in another charset', async () => {
    const reply = await post('/form', 'application/x-www-form-urlencoded; charset=utf-16', 'a=b');
    expect(reply.status).toBe(400);
  });

  it('leaves other media types to their route', async () => {
    const reply = await post('/text', 'text/plain', 'hello');
    expect(reply).toEqual({ status: 200, body: { received: 'hello' } });
  });
});

describe('strictBodies and empty bodies', () => {
  it('lets an empty body with a JSON type through to the route (a DELETE with headers)', async () => {
    const deleting = new Hono();
    deleting.use(strictBodies());
    deleting.delete('/thing', (c) => c.body(null, 204));
    const response = await deleting.request('/thing', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(204);
  });

  it('still refuses an empty body where JSON is read', async () => {
    const reply = await post('/read-json', 'application/json', '');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ params: { issues: [{ code: 'invalid_json' }] } });
  });
});
