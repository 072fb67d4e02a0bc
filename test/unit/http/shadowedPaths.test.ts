import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mountRoutes, type Authenticator } from '../../../api/http/mount';
import { defineRoute, type RouteDef } from '../../../api/http/route';
import { allowHeader, shadowedLiteralPaths } from '../../../api/http/shadowedPaths';
import { errorMiddleware } from '../../../api/middleware/errors';

/**
 * A literal path that a parameterised route also matches (`POST /api/v1/workflows/validate` and
 * `GET /api/v1/workflows/{id}`) answers a wrong method 405 with its own Allow, like every other path, instead of
 * running the parameterised route's handler with the literal segment as its id.
 */

const route = (method: RouteDef['method'], path: string, answer: string): RouteDef =>
  defineRoute({
    method,
    path,
    operationId: `${method}${path.replace(/\W/g, '_')}`,
    summary: answer,
    tags: ['Probe'],
    auth: 'public',
    responses: { 200: { description: answer } },
    handler: async () => ({ body: { answer } }),
  });

const ROUTES = [
  route('post', '/api/v1/things/validate', 'validated'),
  route('get', '/api/v1/things', 'listed'),
  route('get', '/api/v1/things/{id}', 'read'),
  route('put', '/api/v1/things/{id}', 'updated'),
  route('delete', '/api/v1/things/{id}', 'deleted'),
  route('get', '/api/v1/things/search', 'searched'),
  route('get', '/api/v1/things/{id}/runs', 'runs'),
];

describe('shadowedLiteralPaths', () => {
  test('finds the literal paths a parameterised path also matches, with their own methods', () => {
    expect(shadowedLiteralPaths(ROUTES)).toEqual(
      new Map([
        ['/api/v1/things/validate', ['post']],
        ['/api/v1/things/search', ['get']],
      ]),
    );
  });

  test('a parameter stands for one segment only; a path without a parameterised twin is not shadowed', () => {
    expect(shadowedLiteralPaths([route('get', '/a/b/c', 'x'), route('get', '/a/{id}', 'y'), route('post', '/b', 'z')])).toEqual(new Map());
  });

  test('Allow lists HEAD with GET, as the router does', () => {
    expect(allowHeader(['post'])).toBe('POST');
    expect(allowHeader(['get', 'put'])).toBe('HEAD, GET, PUT');
  });
});

describe('mounted', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const koa = new Koa();
    const router = new Router();
    mountRoutes(router, ROUTES, {} as Authenticator, 1_000_000);
    koa.use(errorMiddleware());
    koa.use(router.routes());
    koa.use(router.allowedMethods());
    server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const call = async (method: string, path: string) => {
    const res = await fetch(`${base}${path}`, { method, headers: method === 'POST' ? { 'content-type': 'application/json' } : {}, body: method === 'POST' ? '{}' : undefined });
    const text = await res.text();
    return { status: res.status, allow: res.headers.get('allow'), body: text ? JSON.parse(text) : null };
  };

  test.each([
    ['GET', '/api/v1/things/validate', 'POST'],
    ['PUT', '/api/v1/things/validate', 'POST'],
    ['DELETE', '/api/v1/things/validate', 'POST'],
    ['PATCH', '/api/v1/things/validate', 'POST'],
    ['DELETE', '/api/v1/things/search', 'HEAD, GET'],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const res = await call(method, path);
    expect(res).toEqual({
      status: 405,
      allow,
      body: { error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed on ${path}; allowed: ${allow}` } },
    });
  });

  test('the declared methods still reach their handlers, and the parameterised routes keep every other id', async () => {
    expect(await call('POST', '/api/v1/things/validate')).toMatchObject({ status: 200, body: { answer: 'validated' } });
    expect(await call('GET', '/api/v1/things/search')).toMatchObject({ status: 200, body: { answer: 'searched' } });
    expect(await call('GET', '/api/v1/things/42')).toMatchObject({ status: 200, body: { answer: 'read' } });
    expect(await call('DELETE', '/api/v1/things/42')).toMatchObject({ status: 200, body: { answer: 'deleted' } });
    expect(await call('GET', '/api/v1/things/validate/runs')).toMatchObject({ status: 200, body: { answer: 'runs' } });
  });

  test('OPTIONS answers the literal path\'s own methods', async () => {
    expect(await call('OPTIONS', '/api/v1/things/validate')).toMatchObject({ status: 200, allow: 'POST' });
  });
});
