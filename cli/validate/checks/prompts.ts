import type { Diagnostic } from '../../diagnostics.js';
import { locateInString } from '../../load/locators.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { findPlaceholders } from '../../manifest/placeholders.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';
import { didYouMean } from '../suggest.js';

/**
 * Declarative prompts: every `{{placeholder}}` names a declared argument (a typo would otherwise
 * render as empty text), in a `text:` message and in an embedded resource's `text` alike (the
 * server renders both), and a required argument has no `default` (it could never be used).
 */
export function checkPrompts(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, p] of recordEntries(m.data.prompts)) {
    if (!isRecord(p)) continue;
    const args = isRecord(p.arguments) ? p.arguments : {};
    const argNames = Object.keys(args);
    for (const [arg, a] of Object.entries(args)) {
      if (isRecord(a) && a.required === true && 'default' in a) {
        out.push(
          diagAt(
            m,
            ['prompts', name, 'arguments', arg, 'default'],
            Codes.REQUIRED_WITH_DEFAULT,
            `argument \`${arg}\` of prompt \`${name}\` is required, so its \`default\` is never used`,
            {
              key: true,
              hint: 'remove `default`, or make the argument optional (required: false)',
            },
          ),
        );
      }
    }
    if (!Array.isArray(p.messages)) continue;
    const checkText = (text: string, at: JsonPath): void => {
      // Each unknown name once per text, at its first use, with how often it recurs.
      const unknown = new Map<string, { first: ReturnType<typeof findPlaceholders>[number]; count: number }>();
      for (const ph of findPlaceholders(text)) {
        if (Object.hasOwn(args, ph.name)) continue;
        const seen = unknown.get(ph.name);
        if (seen) seen.count++;
        else unknown.set(ph.name, { first: ph, count: 1 });
      }
      for (const [, { first: ph, count }] of unknown) {
        const range = locateInString(m, at, ph.start, ph.end);
        const again = count > 1 ? ` (${count - 1} more time${count === 2 ? '' : 's'} in this text)` : '';
        const message =
          ph.name === ''
            ? `empty placeholder \`{{}}\` in prompt \`${name}\`${again}`
            : `placeholder \`{{${ph.name}}}\` names no argument of prompt \`${name}\`${again}${didYouMean(ph.name, argNames)}`;
        out.push(
          diagAt(m, at, Codes.UNKNOWN_PLACEHOLDER, message, {
            range,
            ...(argNames.length === 0 && ph.name !== ''
              ? { hint: `declare it: arguments: { ${ph.name}: { description: … } }` }
              : {}),
          }),
        );
      }
    };
    p.messages.forEach((msg, i) => {
      if (!isRecord(msg)) return;
      for (const kind of ['image', 'audio'] as const) {
        const media = msg[kind];
        if (isRecord(media) && typeof media.data === 'string')
          checkBase64(m, media.data, ['prompts', name, 'messages', i, kind, 'data'], out);
      }
      if (isRecord(msg.resource) && typeof msg.resource.blob === 'string')
        checkBase64(m, msg.resource.blob, ['prompts', name, 'messages', i, 'resource', 'blob'], out);
      if (typeof msg.text === 'string') checkText(msg.text, ['prompts', name, 'messages', i, 'text']);
      // A `file:` resource's text is rendered too; only text written in the manifest is checked here.
      if (isRecord(msg.resource) && typeof msg.resource.text === 'string')
        checkText(msg.resource.text, ['prompts', name, 'messages', i, 'resource', 'text']);
    });
  }
  return out;
}

/** Standard base64 (RFC 4648 §4) with its padding: what MCP's `data` and `blob` fields carry. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * MCPG232: inline `data`/`blob` that is not base64. It is sent as written, and clients (and the
 * SDK's result check) refuse it: the mistake would surface only when a client renders the prompt.
 */
function checkBase64(m: LoadedManifest, value: string, at: JsonPath, out: Diagnostic[]): void {
  // Line breaks are a common way to wrap long base64 in YAML; they are not part of the data.
  const compact = value.replace(/\s+/g, '');
  if (BASE64.test(compact)) return;
  const bad = /[^A-Za-z0-9+/=\s]/.exec(value);
  const why = bad
    ? `holds \`${bad[0]}\`, which base64 has not`
    : compact.length % 4 !== 0
      ? `is ${compact.length} characters long, not a multiple of 4`
      : 'has `=` padding inside it';
  out.push(
    diagAt(m, at, Codes.NOT_BASE64, `this data is not base64: it ${why}`, {
      ...(bad ? { range: locateInString(m, at, bad.index, bad.index + bad[0].length) } : {}),
      hint: '`data` carries base64 of the bytes (`base64 < image.png`); or point `file:` at the image and mcpgen encodes it',
    }),
  );
}
