/**
 * Views of the MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865): which resources are
 * views, and how a tool's `ui.resource` finds its view. Shared by validate and normalize, so the
 * two agree on what a manifest means.
 */

/** The MIME type a view is served as (the extension's only one so far). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A resource is a view when it says `ui`, or when its URI is `ui://…`. */
export function isView(r: unknown): boolean {
  return isRecord(r) && (r.ui !== undefined || (typeof r.uri === 'string' && hasUiScheme(r.uri)));
}

export const hasUiScheme = (uri: string): boolean => /^ui:\/\//i.test(uri);

/**
 * The resource a tool's `ui.resource` names: by name first, then by URI. Undefined when nothing
 * matches; the entry is returned whether or not it is a view (the caller says which it is not).
 */
export function findViewResource(
  resources: unknown,
  ref: string,
): { name: string; resource: Record<string, unknown> } | undefined {
  if (!isRecord(resources)) return undefined;
  const named = Object.hasOwn(resources, ref) ? resources[ref] : undefined;
  if (isRecord(named)) return { name: ref, resource: named };
  for (const [name, r] of Object.entries(resources)) if (isRecord(r) && r.uri === ref) return { name, resource: r };
  return undefined;
}

/** Whether a declared MIME type is the view's, up to case and spaces around `;`. */
export const isViewMimeType = (mimeType: string): boolean =>
  mimeType.toLowerCase().replace(/\s*;\s*/g, ';') === VIEW_MIME_TYPE;

/**
 * Where `mcpgen build` writes a built view, relative to the built server's `views/` folder, and
 * where the server reads it: its URI after `ui://`, each path segment kept to file-name-safe
 * characters (a hash of the URI added when any was changed, so two URIs never share a file).
 */
export function viewOutput(uri: string): string {
  const rest = uri.replace(/^ui:\/\//i, '');
  const segments = rest
    .split('/')
    .map((s) => s.replace(/[^A-Za-z0-9._-]/g, '_'))
    .filter((s) => s !== '' && s !== '.' && s !== '..');
  const plain = segments.join('/') || 'view';
  if (plain === rest) return `${plain}.html`;
  let h = 0x811c9dc5;
  for (const ch of uri) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return `${plain}-${h.toString(36)}.html`;
}
