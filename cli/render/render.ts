/**
 * render: IR → the project's files, in their final layout. One view model per file kind, built here so the
 * templates stay free of logic; every piece of manifest text goes through cli/render/escape.ts.
 */
import type { IR } from '../normalize/ir.js';
import type { OutputFile } from '../plan/plan.js';
import { renderTemplate } from './handlebars.js';
import { renderTypes } from './types.js';
import {
  contentView,
  handlersView,
  headerLines,
  httpView,
  oauthView,
  packageData,
  projectView,
  schemasView,
  serverView,
  sseView,
} from './views.js';
import { promptStub, resourceStub, templateStub, toolStub, toolTestStub } from './stubs.js';
import { contractTestView } from './contract-view.js';
import { pathsView } from './paths-view.js';
import { renderContracts } from './contracts.js';
import { readmeView } from './readme-view.js';
import { printJson } from '../format/literal.js';
import { promptsView, resourcesView, type RuntimeUses, runtimeView, toolsView } from './runtime-view.js';
import { placeLiterals } from './place-literals.js';

/** Generated files only some servers have: each brings its own runtime packages (plan/dependencies.ts). */
function optionalFiles(ir: IR): { path: string; view: () => object }[] {
  const http = ir.transports.http;
  return [
    ...(http?.oauth ? [{ path: 'src/generated/oauth.ts', view: () => oauthView(ir) }] : []),
    ...(http?.sse ? [{ path: 'src/generated/sse.ts', view: () => sseView(ir) }] : []),
  ];
}

/** A template written in prettier's final layout, its `{{literal}}` values printed in place. */
function renderPrinted(template: string, view: object): string {
  const literals: unknown[] = [];
  return placeLiterals(renderTemplate(template, { ...view, __literals: literals }), literals);
}

/**
 * The project's files, each rendered when it is pulled, in its final layout: templates emit
 * prettier's layout for every variant, data goes through the literal printer, width-dependent code
 * through prettier's doc builders (test/print-final*.test.ts hold every file to prettier).
 *
 * `kept` says which user-owned files exist already: they are never rewritten, so they are listed
 * (the plan needs their paths) but not rendered — a regenerate of 1000 tools skips 2000 stubs.
 */
export function* renderFiles(ir: IR, kept: (path: string) => boolean = () => false): Generator<OutputFile> {
  const header = headerLines(ir);
  const gen = (path: string, view: object = {}, template = path): OutputFile => ({ path, owner: 'generated', content: renderPrinted(template, { header, ...view }) });
  // A user-owned file that exists is kept: listed, not rendered.
  const own = (path: string, content: () => string): OutputFile => ({ path, owner: 'user', content: kept(path) ? '' : content() });
  const user = (path: string, template: string, view: () => object): OutputFile => own(path, () => renderPrinted(template, view()));
  yield { path: 'src/generated/types.ts', owner: 'generated', content: `${header}\n\n${renderTypes(ir)}` };
  const server = serverView(ir);
  const contract = contractTestView(ir);
  // jsonSchemas is exported for those who read it: prompt arguments (server.ts), the contract test.
  const readsSchemas = server.schemaImports.includes('jsonSchemas') || contract.referencesSchemas;
  const schemas = { ...schemasView(ir), exportJsonSchemas: readsSchemas };
  const hasTasks = ir.tools.some((t) => t.execution.taskSupport !== 'forbidden');
  const uses: RuntimeUses = { server: server.uses, tasks: hasTasks, schemasOwnProperties: schemas.usesOwnProperties };
  // Nothing to declare (no inputs, outputs or arguments): nothing imports schemas.ts.
  if (schemas.jsonSchemas.length) yield gen('src/generated/schemas.ts', schemas);
  const content = contentView(ir);
  // Static resource contents and declarative prompt messages: only a manifest with some has it.
  if (content.resources || content.prompts) yield gen('src/generated/content.ts', content);
  yield gen('src/generated/handlers.ts', handlersView(ir, server.uses.has('completers')));
  yield gen('src/generated/runtime.ts', runtimeView(uses));
  // The parts of the runtime a manifest may not need: each only when server.ts calls into it.
  if (ir.tools.length) yield gen('src/generated/tools.ts', toolsView(uses));
  if (ir.resources.length || ir.templates.length) yield gen('src/generated/resources.ts', resourcesView(uses));
  if (ir.prompts.length) yield gen('src/generated/prompts.ts', promptsView(uses));
  if (server.uses.has('completers')) yield gen('src/generated/completions.ts');
  if (server.uses.has('paginate')) yield gen('src/generated/pagination.ts');
  yield gen('src/generated/request-state.ts');
  yield gen('src/generated/sdk-handlers.ts');
  yield gen('src/generated/era.ts');
  yield gen('src/generated/input.ts');
  yield gen('src/generated/server.ts', server);
  yield gen('src/generated/stdio.ts', { tasks: hasTasks });
  yield gen('src/generated/stdio-transport.ts');
  yield gen('src/generated/http.ts', { ...httpView(ir), tasks: hasTasks });
  yield gen('src/generated/http-wire.ts');
  yield gen('src/generated/sessions.ts');
  // Replicas sharing one Redis (REDIS_URL): loaded by http.ts only when it is set.
  yield gen('src/generated/redis.ts');
  yield gen('src/generated/redis-bus.ts');
  yield gen('src/generated/redis-sessions.ts');
  yield gen('src/generated/shared.ts', { tasks: hasTasks });
  if (ir.templates.length) yield gen('src/generated/paths.ts', pathsView(ir));
  // The tasks extension (SEP-2663): only for a manifest with a tool that may run as a task.
  if (hasTasks) {
    yield gen('src/generated/tasks.ts');
    yield gen('src/generated/listen-topics.ts');
    yield gen('src/generated/task-store.ts');
    yield gen('src/generated/redis-tasks.ts');
  }
  const optional = optionalFiles(ir);
  for (const file of optional) yield gen(file.path, file.view());
  yield { path: 'src/generated/contracts.json', owner: 'generated', content: renderContracts(ir, header) };
  yield gen('test/generated/contract.test.ts', contract);
  yield user('src/main.ts', 'src/main.ts', () => projectView(ir));
  // JSON printed as prettier prints it (cli/format/literal.ts).
  yield own('package.json', () => printJson(packageData(ir, ['src/generated/redis.ts', ...optional.map((f) => f.path)])));
  yield user('tsconfig.json', 'project/tsconfig.json', () => ({}));
  yield user('.gitignore', 'project/gitignore', () => ({}));
  // Written as prettier's markdown would print it (test/prettier-stable.test.ts).
  yield user('README.md', 'project/README.md', () => readmeView(ir));

  for (const t of ir.tools) {
    yield user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/tool.ts', () => toolStub(t));
    yield user(`test/handlers/${t.handlerPath}.test.ts`, 'test/handlers/tool.test.ts', () => toolTestStub(t));
  }
  for (const r of ir.resources) {
    if (r.handlerPath) yield user(`src/handlers/${r.handlerPath}.ts`, 'src/handlers/resource.ts', () => resourceStub(r));
  }
  for (const t of ir.templates) yield user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/template.ts', () => templateStub(t));
  for (const p of ir.prompts) {
    if (p.handlerPath) yield user(`src/handlers/${p.handlerPath}.ts`, 'src/handlers/prompt.ts', () => promptStub(p));
  }
}
