/**
 * The per-entry code of server.ts printed in prettier's layout (cli/render/expression-doc.ts), from
 * the entries serverView collects: registrations, loaders, prompt arguments, scope tables, data.
 */
import { ASCII, printLiteral, printString, propertyName, WIDTH } from '../format/literal.js';
import { printAt } from './code-doc.js';
import { array, arrow, atom, call, constant, object, path, property, str, type Expr, type Member } from './expression-doc.js';

const index = (name: string) => `[${printString(name)}]`;

/** `const <head> = <value>;` with the value printed as data; null when the head itself would break. */
export function declaration(head: string, value: unknown): string | null {
  const open = `${head} = `;
  if (open.length + 1 > WIDTH || !ASCII.test(open)) return null;
  return `${open}${printLiteral(value, 0, open.length, ';')};`;
}

export const loader = (l: { alias: string; path: string }) =>
  printAt(constant(l.alias, call('lazy', [arrow([], call('import', [str(l.path)], { isImport: true }))])), 0, ';');

export function promptArgsStatement(p: { constName: string; type: string; key: string; name: string; complete: boolean; handled: boolean; alias: string; ownProperties: boolean }): string {
  const completions = p.complete ? call('completers', [path('promptCompletions', index(p.name)), ...(p.handled ? [atom(p.alias)] : [])]) : object([]);
  const built = call('promptArguments', [path('jsonSchemas', `.${p.key}`), completions], { typeArg: p.type });
  return printAt(constant(p.constName, p.ownProperties ? call('ownProperties', [built]) : built), 0, ';');
}

const scopeChallenge = (kind: string, name: string): Member[] => [{ key: 'scopeChallenge', value: path('scopes', `.${kind}`, index(name)) }];

export function toolMember(t: { name: string; param: string; call: string; input: string | null; output: string | null; alias: string; scoped: boolean }): string {
  const info = t.scoped ? object([{ spread: path('toolInfo', index(t.name)) }, ...scopeChallenge('tools', t.name)]) : path('toolInfo', index(t.name));
  const args: Expr[] = [atom('server'), str(t.name), info, t.input ? path('schemas', `.${t.input}`) : atom('undefined'), ...(t.output ? [path('schemas', `.${t.output}`)] : []), atom(t.alias)];
  return printAt(property(propertyName(t.name), arrow([t.param], call(t.call, args))), 2, ',');
}

export function resourceStatement(r: { name: string; uri: string; handler: boolean; alias: string | null; ident: string; scoped: boolean }): string {
  const read = r.handler
    ? arrow(['uri', 'ctx'], call('readResource', [atom(r.alias!), atom('uri'), atom('ctx'), path('resourceInfo', index(r.name), '?.mimeType'), atom('server')]))
    : arrow([], object([{ key: 'contents', value: array([path('resourceContents', `.${r.ident}`)]) }]));
  const info = object([{ spread: path('resourceInfo', index(r.name)) }, ...(r.scoped ? scopeChallenge('resources', r.name) : [])]);
  return printAt(call(path('server', '.registerResource'), [str(r.name), str(r.uri), info, read]), 2, ';');
}

export function templateStatement(t: { name: string; uriTemplate: string; alias: string; hasList: boolean; complete: boolean; handled: boolean; params: string; scoped: boolean; guarded: boolean }): string {
  const n = index(t.name);
  const options: Member[] = [
    { key: 'list', value: t.hasList ? arrow(['ctx'], call('listResources', [atom(t.alias), atom('ctx'), atom('server')])) : atom('undefined') },
    ...(t.complete ? [{ key: 'complete', value: call('completers', [path('templateCompletions', n), ...(t.handled ? [atom(t.alias)] : [])]) }] : []),
  ];
  const template = call('ResourceTemplate', [str(t.uriTemplate), object(options)], { isNew: true });
  const info = object([{ spread: path('templateInfo', n) }, ...(t.scoped ? scopeChallenge('templates', t.name) : [])]);
  const variables = t.guarded ? call('guardPaths', [str(t.name), atom('uri'), atom('variables')]) : atom('variables');
  const read = arrow(
    ['uri', 'variables', 'ctx'],
    call('readTemplate', [atom(t.alias), atom('uri'), variables, atom('ctx'), path('schemas', `.${t.params}`), path('templateInfo', n, '?.mimeType'), atom('server')]),
  );
  return printAt(call(path('server', '.registerResource'), [str(t.name), template, info, read]), 2, ';');
}

export function promptMember(p: { name: string; param: string; args: string | null; declarative: boolean; ident: string; alias: string | null; hasDefaults: boolean; scoped: boolean; described: boolean }): string {
  const n = index(p.name);
  const info = object([{ spread: path('promptInfo', n) }, ...(p.args ? [{ key: 'argsSchema', value: atom(p.args) }] : []), ...(p.scoped ? scopeChallenge('prompts', p.name) : [])]);
  const args = p.args ? atom('args') : object([]);
  const body = p.declarative
    ? call('renderPrompt', [path('promptMessages', `.${p.ident}`), args, ...(p.hasDefaults ? [path('promptDefaults', n)] : [])])
    : call('getPrompt', [atom(p.alias!), args, atom('ctx'), atom('server')]);
  const described = p.described ? call('describedPrompt', [path('promptInfo', n, '?.description'), body]) : body;
  const params = p.declarative ? (p.args ? ['args'] : []) : p.args ? ['args', 'ctx'] : ['ctx'];
  return printAt(property(propertyName(p.name), arrow([p.param], call(path('server', '.registerPrompt'), [str(p.name), info, arrow(params, described)]))), 2, ',');
}

export const scopeMember = (name: string, scopes: string[]) => printAt(property(propertyName(name), call('requireScopes', scopes.map(str))), 4, ',');
export const taskModuleMember = (name: string, alias: string) => printAt(property(propertyName(name), atom(alias)), 2, ',');
