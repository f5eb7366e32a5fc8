/**
 * render: IR → the project's files (unformatted). One view model per file kind, built here so the
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
import { placeLiterals } from './place-literals.js';
import type { Section } from '../format/sections.js';

/**
 * The project's files, each rendered when it is pulled: the build formats one before rendering the
 * next, so a file's intermediate text dies young instead of being carried (and copied by the
 * garbage collector) until all 2000 files are rendered.
 *
 * `kept` says which user-owned files exist already: they are never rewritten, so they are listed
 * (the plan needs their paths) but not rendered — a regenerate of 1000 tools skips 2000 stubs.
 */
/** Generated files only some servers have: each brings its own runtime packages (plan/dependencies.ts). */
function optionalFiles(ir: IR): { path: string; view: () => object; printed?: boolean }[] {
  const http = ir.transports.http;
  return [
    ...(http?.oauth ? [{ path: 'src/generated/oauth.ts', view: () => oauthView(ir), printed: true }] : []),
    ...(http?.sse ? [{ path: 'src/generated/sse.ts', view: () => sseView(ir), printed: true }] : []),
  ];
}

/** A template written in prettier's final layout, its `{{literal}}` values printed in place. */
function renderPrinted(template: string, view: object): string {
  const literals: unknown[] = [];
  return placeLiterals(renderTemplate(template, { ...view, __literals: literals }), literals);
}

export function* renderFiles(ir: IR, kept: (path: string) => boolean = () => false): Generator<OutputFile> {
  const header = headerLines(ir);
  const gen = (path: string, template: string, view: object): OutputFile => {
    const data: unknown[] = [];
    const sections: Section[] = [];
    const content = renderTemplate(template, { header, ...view, __data: data, __sections: sections });
    const file: OutputFile = { path, owner: 'generated', content };
    if (data.length) file.data = data;
    if (sections.length) file.sections = sections;
    return file;
  };
  // A file its template prints in prettier's final layout (test/print-final-rest.test.ts checks
  // every {{#if}} variant against prettier): no prettier pass.
  const printed = (path: string, template: string, view: object): OutputFile => ({ path, owner: 'generated', content: renderPrinted(template, { header, ...view }), formatted: true });
  const printedStub = (path: string, template: string, view: () => object): OutputFile =>
    kept(path) ? { path, owner: 'user', content: '' } : { path, owner: 'user', content: renderPrinted(template, view()), formatted: true };
  const user = (path: string, template: string, view: () => object): OutputFile =>
    kept(path) ? { path, owner: 'user', content: '' } : { path, owner: 'user', content: renderTemplate(template, view()) };
  yield { path: 'src/generated/types.ts', owner: 'generated', content: `${header}\n\n${renderTypes(ir)}`, formatted: true };
  // Printed in prettier's layout by their views and templates (test/print-final.test.ts).
  yield { ...gen('src/generated/schemas.ts', 'src/generated/schemas.ts', schemasView(ir)), formatted: true };
  yield { ...gen('src/generated/content.ts', 'src/generated/content.ts', contentView(ir)), formatted: true };
  yield { ...gen('src/generated/handlers.ts', 'src/generated/handlers.ts', handlersView(ir)), formatted: true };
  // The runtime is fixed text, prettier-clean as written (test/prettier-stable.test.ts checks every copy).
  yield { ...gen('src/generated/runtime.ts', 'src/generated/runtime.ts', {}), formatted: true };
  yield { ...gen('src/generated/era.ts', 'src/generated/era.ts', {}), formatted: true };
  yield printed('src/generated/input.ts', 'src/generated/input.ts', {});
  yield { ...gen('src/generated/server.ts', 'src/generated/server.ts', serverView(ir)), formatted: true };
  yield printed('src/generated/stdio.ts', 'src/generated/stdio.ts', {});
  yield printed('src/generated/stdio-transport.ts', 'src/generated/stdio-transport.ts', {});
  yield printed('src/generated/http.ts', 'src/generated/http.ts', httpView(ir));
  yield { ...gen('src/generated/http-wire.ts', 'src/generated/http-wire.ts', {}), formatted: true };
  yield { ...gen('src/generated/sessions.ts', 'src/generated/sessions.ts', {}), formatted: true };
  // Replicas sharing one Redis (REDIS_URL): loaded by http.ts only when it is set.
  const hasTasks = ir.tools.some((t) => t.execution.taskSupport !== 'forbidden');
  yield { ...gen('src/generated/redis.ts', 'src/generated/redis.ts', {}), formatted: true };
  yield { ...gen('src/generated/redis-bus.ts', 'src/generated/redis-bus.ts', {}), formatted: true };
  yield { ...gen('src/generated/redis-sessions.ts', 'src/generated/redis-sessions.ts', {}), formatted: true };
  yield { ...gen('src/generated/shared.ts', 'src/generated/shared.ts', { tasks: hasTasks }), formatted: true };
  if (ir.templates.length) yield printed('src/generated/paths.ts', 'src/generated/paths.ts', pathsView(ir));
  // The tasks extension (SEP-2663): only for a manifest with a tool that may run as a task.
  if (hasTasks) {
    yield printed('src/generated/tasks.ts', 'src/generated/tasks.ts', {});
    yield printed('src/generated/task-store.ts', 'src/generated/task-store.ts', {});
    yield { ...gen('src/generated/redis-tasks.ts', 'src/generated/redis-tasks.ts', {}), formatted: true };
  }
  const optional = optionalFiles(ir);
  for (const file of optional) yield (file.printed ? printed : gen)(file.path, file.path, file.view());
  yield { path: 'src/generated/contracts.json', owner: 'generated', content: renderContracts(ir, header), formatted: true };
  yield printed('test/generated/contract.test.ts', 'test/generated/contract.test.ts', contractTestView(ir));
  yield printedStub('src/main.ts', 'src/main.ts', () => projectView(ir));
  // JSON printed as prettier prints it, and a fixed tsconfig written prettier-clean: no prettier
  // (nor its JSON parser) for either (test/prettier-stable.test.ts checks them).
  yield kept('package.json') ? { path: 'package.json', owner: 'user', content: '' } : { path: 'package.json', owner: 'user', content: printJson(packageData(ir, ['src/generated/redis.ts', ...optional.map((f) => f.path)])), formatted: true };
  yield { ...user('tsconfig.json', 'project/tsconfig.json', () => ({})), formatted: true };
  yield user('.gitignore', 'project/gitignore', () => ({}));
  // Written as prettier's markdown would print it (prettier-stable.test.ts): a first generate needs no prettier for it.
  yield { ...user('README.md', 'project/README.md', () => readmeView(ir)), formatted: true };

  for (const t of ir.tools) {
    yield printedStub(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/tool.ts', () => toolStub(t));
    yield printedStub(`test/handlers/${t.handlerPath}.test.ts`, 'test/handlers/tool.test.ts', () => toolTestStub(t));
  }
  for (const r of ir.resources) {
    if (r.handlerPath) yield printedStub(`src/handlers/${r.handlerPath}.ts`, 'src/handlers/resource.ts', () => resourceStub(r));
  }
  for (const t of ir.templates) yield printedStub(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/template.ts', () => templateStub(t));
  for (const p of ir.prompts) {
    if (p.handlerPath) yield printedStub(`src/handlers/${p.handlerPath}.ts`, 'src/handlers/prompt.ts', () => promptStub(p));
  }
}
