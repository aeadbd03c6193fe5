import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseEnvFile } from '../systemd/env-file.ts';

// The Prometheus example scrapes what the environment example serves, with the bearer token from a file.
const here = path.dirname(fileURLToPath(import.meta.url));
const config = parse(fs.readFileSync(path.join(here, 'prometheus.yml'), 'utf8'));
const env = parseEnvFile(fs.readFileSync(path.join(here, '../systemd/videomote.env.example'), 'utf8'));

describe('deploy/prometheus/prometheus.yml', () => {
  it('scrapes /metrics over TLS on the app nodes\' internal port with the METRICS_TOKEN bearer token read from a file', () => {
    const job = config.scrape_configs.find((j: { job_name: string }) => j.job_name === 'videomote');
    expect(job.metrics_path).toBe('/metrics');
    // Over TLS with the nodes' certificates checked (the token never crosses the network in clear text).
    expect(job.scheme).toBe('https');
    expect(job.tls_config.ca_file).toMatch(/^\/etc\/prometheus\//);
    expect(job.tls_config.insecure_skip_verify).toBeUndefined();
    expect(job.authorization).toEqual({ type: 'Bearer', credentials_file: expect.stringMatching(/^\/etc\/prometheus\//) });
    // Never the token inline.
    expect(JSON.stringify(config)).not.toMatch(/"credentials"|bearer_token"/);
    const targets: string[] = job.static_configs.flatMap((s: { targets: string[] }) => s.targets);
    expect(targets).toContain(`${env.INTERNAL_HOST}:${env.INTERNAL_PORT}`);
    expect(targets.every((t) => t.endsWith(`:${env.INTERNAL_PORT}`))).toBe(true);
  });
});
