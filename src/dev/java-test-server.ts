/**
 * Finds or fetches Temporal's Java test server (`io.temporal:temporal-test-server` on Maven Central), the server
 * behind `TestWorkflowEnvironment.createTimeSkipping`: tests of days-long approvals run in seconds on it. The SDK
 * cannot download it here, so Maven fetches it once into the cache, and a small launcher script is what the
 * SDK runs (`existing-path`). Routes: `TEMPORAL_TEST_SERVER_PATH`, the cache, a Maven fetch.
 */
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';

/** The one place the test server version is pinned. */
export const JAVA_TEST_SERVER_VERSION = '1.38.0';

export function javaTestServerDir(version = JAVA_TEST_SERVER_VERSION): string {
  return path.join(envPaths('temporal-hitl-agent', { suffix: '' }).cache, 'java-test-server', version);
}

const POM = (version: string) => `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>temporal-hitl-agent</groupId><artifactId>java-test-server</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>${version}</version></dependency>
  </dependencies>
</project>
`;

const LAUNCHER = `#!/bin/sh
# Runs Temporal's Java test server; the SDK passes the port as the first argument.
exec java -cp "$(dirname "$0")/lib/*" io.temporal.testserver.TestServer "$@"
`;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the path of an executable that starts the Java test server, fetching it with Maven the first time. */
export async function ensureJavaTestServer(
  progress: (line: string) => void = (l) => process.stderr.write(`[java-test-server] ${l}\n`),
): Promise<string> {
  const fromEnv = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new Error(`TEMPORAL_TEST_SERVER_PATH=${fromEnv} is not an executable file.`);
  }
  const dir = javaTestServerDir();
  const launcher = path.join(dir, 'temporal-test-server');
  if (isExecutable(launcher)) return launcher;

  progress(`fetching io.temporal:temporal-test-server:${JAVA_TEST_SERVER_VERSION} with Maven (first time only)`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'pom.xml'), POM(JAVA_TEST_SERVER_VERSION));
  rmSync(path.join(dir, 'lib'), { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    const mvn = spawn('mvn', ['-q', '-B', 'dependency:copy-dependencies', '-DoutputDirectory=lib', '-DincludeScope=runtime'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    mvn.stdout.on('data', (d) => (output += d));
    mvn.stderr.on('data', (d) => (output += d));
    mvn.on('error', (err) =>
      reject(
        new Error(`Could not run Maven (needed once to fetch the Java test server; or set TEMPORAL_TEST_SERVER_PATH): ${err.message}`),
      ),
    );
    mvn.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`Maven exited with ${code}:\n${output.slice(-2000)}`))));
  });
  writeFileSync(launcher, LAUNCHER);
  chmodSync(launcher, 0o755);
  progress(`ready: ${launcher}`);
  return launcher;
}

/** `npm run java-test-server`: make sure it is there and print where. */
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  ensureJavaTestServer()
    .then((file) => console.log(file))
    .catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
}
