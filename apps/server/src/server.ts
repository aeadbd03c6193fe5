import { buildApp } from './app.ts';
import { ConfigError, configWarnings, loadConfig, type Config } from './platform/config.ts';

/** A configuration error (a setting, or a certificate file that cannot be read) ends the start with its message. */
function failStart(err: unknown): never {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
    process.exit(1);
  }
  throw err;
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  failStart(err);
}

for (const warning of configWarnings(config)) console.warn(`Configuration warning: ${warning}`);
// The operator's written reason for a PostgreSQL TLS that does not check the server's name (config.ts), on record.
if (process.env.DATABASE_TLS_UNVERIFIED_REASON) console.warn(`PostgreSQL TLS without name check, because: ${process.env.DATABASE_TLS_UNVERIFIED_REASON}`);

const app = await buildApp({ config }).catch(failStart);
await app.listen({ port: config.port, host: config.host });
// Metrics, readiness and the API description: on an address of their own, loopback unless configured otherwise.
const internalAddress = await app.internal.listen({ port: config.internalPort, host: config.internalHost });
console.log(`Videomöte serves on ${config.publicUrl}`);
console.log(`Internal endpoints (/metrics, /readyz, /api/docs) on ${internalAddress}`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let requests and sockets finish, then close the database and media supervisor (onClose hooks).
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
