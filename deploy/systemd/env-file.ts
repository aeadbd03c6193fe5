/** An environment file as systemd's EnvironmentFile= reads the plain KEY=value lines it holds. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`not KEY=value: ${line}`);
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
