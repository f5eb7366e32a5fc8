/**
 * A small real API for the OpenAPI tests and bench/openapi-compare.mjs: items in a Map, CRUD, a
 * bearer token, a slow report; Fastify describes it with @fastify/swagger (OpenAPI 3.0).
 */
import swagger from '@fastify/swagger';
import Fastify from 'fastify';

export const TOKEN = 'inventory-secret';

const item = {
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true, description: 'Assigned by the API' },
    name: { type: 'string', minLength: 1, description: 'What the item is called' },
    price: { type: 'number', minimum: 0, description: 'Price in euros' },
    tags: { type: 'array', items: { type: 'string' }, description: 'Free labels' },
  },
  required: ['id', 'name', 'price'],
};
const error = { type: 'object', properties: { message: { type: 'string' } } };
const idParam = {
  type: 'object',
  properties: { id: { type: 'integer', description: 'The item id' } },
  required: ['id'],
};

/** The API, ready (its OpenAPI document at app.swagger()), not yet listening. */
export async function inventoryApi() {
  const items = new Map();
  let next = 1;
  const app = Fastify();
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Inventory API', version: '1.0.0', description: 'Items in stock' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/documentation')) return;
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      await reply.code(401).send({ message: 'wrong or missing token' });
  });
  const body = {
    type: 'object',
    properties: { name: item.properties.name, price: item.properties.price, tags: item.properties.tags },
    required: ['name', 'price'],
  };
  app.get(
    '/items',
    {
      schema: {
        operationId: 'listItems',
        summary: 'List the items in stock',
        tags: ['items'],
        querystring: {
          type: 'object',
          properties: {
            tag: { type: 'string', description: 'Only items with this tag' },
            limit: { type: 'integer', minimum: 1, default: 20, description: 'At most this many' },
          },
        },
        response: {
          200: { type: 'object', properties: { items: { type: 'array', items: item }, total: { type: 'integer' } } },
        },
      },
    },
    async (req) => {
      const { tag, limit } = req.query;
      const all = [...items.values()].filter((i) => !tag || i.tags?.includes(tag));
      return { items: all.slice(0, limit), total: all.length };
    },
  );
  app.post(
    '/items',
    {
      schema: {
        operationId: 'createItem',
        summary: 'Add an item to the stock',
        tags: ['items'],
        body,
        response: { 201: item, 400: error },
      },
    },
    async (req, reply) => {
      const i = { id: next++, ...req.body };
      items.set(i.id, i);
      return reply.code(201).send(i);
    },
  );
  app.get(
    '/items/:id',
    {
      schema: {
        operationId: 'getItem',
        summary: 'Get one item by its id',
        tags: ['items'],
        params: idParam,
        response: { 200: item, 404: error },
      },
    },
    async (req, reply) => {
      const i = items.get(req.params.id);
      return i ?? reply.code(404).send({ message: `no item ${req.params.id}` });
    },
  );
  app.put(
    '/items/:id',
    {
      schema: {
        operationId: 'replaceItem',
        summary: 'Replace an item',
        tags: ['items'],
        params: idParam,
        body,
        response: { 200: item, 404: error },
      },
    },
    async (req, reply) => {
      const id = req.params.id;
      if (!items.has(id)) return reply.code(404).send({ message: `no item ${id}` });
      const i = { id, ...req.body };
      items.set(id, i);
      return i;
    },
  );
  app.delete(
    '/items/:id',
    {
      schema: {
        operationId: 'deleteItem',
        summary: 'Remove an item from the stock',
        tags: ['items'],
        params: idParam,
        response: { 204: { type: 'null', description: 'Removed' }, 404: error },
      },
    },
    async (req, reply) => {
      const id = req.params.id;
      if (!items.delete(id)) return reply.code(404).send({ message: `no item ${id}` });
      return reply.code(204).send();
    },
  );
  app.get(
    '/report',
    {
      schema: {
        operationId: 'buildReport',
        summary: 'Build the stock report (slow)',
        tags: ['reports'],
        response: { 200: { type: 'object', properties: { lines: { type: 'integer' } } } },
      },
    },
    async () => {
      await new Promise((r) => setTimeout(r, 3000));
      return { lines: items.size };
    },
  );
  await app.ready();
  return app;
}
