/**
 * Who made a request, once authenticated: the basic-auth user or the principal a bearer token
 * belongs to. Authorization (per-group policies, issue 17) will decide on it.
 */
export interface Principal {
  readonly name: string;
  readonly scheme: 'basic' | 'bearer';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; null when authentication is off or the route is open (`/ping`). */
    principal: Principal | null;
  }
}
