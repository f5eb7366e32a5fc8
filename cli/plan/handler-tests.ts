/**
 * Tests of handlers mcpgen makes no test stub for (resources, templates, prompts): a user's
 * `test/handlers/<kind>/<name>.test.ts` is the test of `src/handlers/<kind>/<name>.ts`, so it is
 * orphaned with that handler and moves with it on a rename, as a tool's test stub does.
 * Light: the up-to-date fast path (stamp.ts) imports it.
 */

/** The folders of those tests (tools' are among the handler folders: their tests are planned). */
export const HANDLER_TEST_DIRS = ['test/handlers/resources', 'test/handlers/templates', 'test/handlers/prompts'];

/** The handler a file in one of HANDLER_TEST_DIRS tests, or null for any other file (a helper, a subfolder's). */
export function testedHandler(rel: string): string | null {
  const m = /^test\/handlers\/(resources|templates|prompts)\/([^/]+)\.test\.ts$/.exec(rel);
  return m ? `src/handlers/${m[1]}/${m[2]}.ts` : null;
}
