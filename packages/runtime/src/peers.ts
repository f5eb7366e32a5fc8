// Optional peer dependencies: a feature's package is loaded only when the feature is configured.

/** The range of each optional peer the runtime is tested with (package.json peerDependencies). */
export const OPTIONAL_PEERS: Readonly<Record<string, string>> = {
  '@modelcontextprotocol/server-legacy': '~2.3.1',
  '@opentelemetry/api': '>=1.9.0 <1.11.0',
  '@opentelemetry/sdk-node': '>=0.223.0 <0.302.0',
  ioredis: '^6.0.0',
  jose: '^6.2.18',
};

/** Thrown when a configured feature's package is not installed: says what to install. */
export class MissingPeerError extends Error {
  override name = 'MissingPeerError';

  constructor(
    readonly packageName: string,
    feature: string,
  ) {
    const range = OPTIONAL_PEERS[packageName];
    super(
      `${feature} needs the package ${packageName}, which is not installed; run: npm install ${packageName}${range ? `@'${range}'` : ''}`,
    );
  }
}

/** Whether `error` says that `packageName` itself cannot be found (not a module it imports). */
function isMissing(error: unknown, packageName: string): boolean {
  const e = error as { code?: string; message?: string } | null;
  return (
    (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') &&
    typeof e.message === 'string' &&
    (e.message.includes(`'${packageName}'`) || e.message.includes(`'${packageName}/`))
  );
}

/**
 * Loads the runtime module of a feature that needs `packageName`; a missing package becomes a
 * {@link MissingPeerError} naming the feature (`feature`: what configured it) and the install.
 */
export async function loadPeer<T>(packageName: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingPeerError(packageName, feature);
    throw error;
  }
}
