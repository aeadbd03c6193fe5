import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@videomote/contract/errors';
import { AppError } from './errors.ts';

const SWEDISH_BY_STATUS: Record<number, string> = {
  400: 'Felaktig förfrågan',
  401: 'Du är inte inloggad',
  403: 'Du har inte behörighet till detta',
  404: 'Hittades inte',
  405: 'Metoden stöds inte',
  409: 'Uppgifterna har ändrats av någon annan',
  413: 'Förfrågan är för stor',
  414: 'Adressen är för lång',
  415: 'Formatet stöds inte',
  429: 'För många förfrågningar, försök igen om en stund',
};

/**
 * The one place that turns errors into HTTP: domain errors keep their code, schema failures become the spec's
 * `errors` list, client mistakes keep their 4xx, and a 5xx never shows its internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorBody = { name: error.code, message: error.message, statusCode: error.statusCode };
      if (error.errors) body.errors = error.errors;
      return reply.status(error.statusCode).send(body);
    }
    if (error.validation) {
      const errors = error.validation.map((v) => {
        const field = v.instancePath.replace(/^\/(data\/?)?/, '').replace(/\//g, '.') ||
          String((v.params as { missingProperty?: string }).missingProperty ?? 'data');
        return { fields: [field], message: 'Fältet är ej korrekt ifyllt' };
      });
      return reply.status(400).send({ name: 'ValidationError', message: 'Felaktiga uppgifter', statusCode: 400, errors });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ name: error.code ?? 'BadRequest', message: SWEDISH_BY_STATUS[status] ?? 'Felaktig förfrågan', statusCode: status });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ name: 'InternalError', message: 'Något gick fel. Försök igen om en stund.', statusCode: 500 });
  });
}

/**
 * Errors Fastify raises while routing, before any handler or hook (a malformed %-escape in the path, a path parameter
 * over maxParamLength): they bypass the error handler, so they get the same Swedish error shape here.
 * Passed as the `frameworkErrors` option of Fastify in app.ts.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.status(status).send({ name: 'BadRequest', message: SWEDISH_BY_STATUS[status] ?? 'Felaktig förfrågan', statusCode: status });
}
