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
        if (Object.prototype.hasOwnProperty.call(args, ph.name)) continue;
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
      if (typeof msg.text === 'string') checkText(msg.text, ['prompts', name, 'messages', i, 'text']);
      // A `file:` resource's text is rendered too; only text written in the manifest is checked here.
      if (isRecord(msg.resource) && typeof msg.resource.text === 'string')
        checkText(msg.resource.text, ['prompts', name, 'messages', i, 'resource', 'text']);
    });
  }
  return out;
}
