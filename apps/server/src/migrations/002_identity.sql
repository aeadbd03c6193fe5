-- Identity. A login in progress (OIDC authorization code + PKCE): the browser holds only the random state in a
-- cookie; verifier, nonce and where to return live here, single use, short-lived, so a restart or another node
-- can finish the login.
CREATE TABLE login_states (
  state text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  return_url text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_states_expires_idx ON login_states (expires_at);

-- The embedded test IdP's storage (oidc-provider adapter): sessions, interactions, grants, codes, tokens.
CREATE TABLE idp_store (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX idp_store_grant_idx ON idp_store (grant_id);
CREATE INDEX idp_store_uid_idx ON idp_store (uid);
CREATE INDEX idp_store_expires_idx ON idp_store (expires_at);

-- Accounts the embedded test IdP has logged in, so it can answer userinfo for them after a restart. The
-- personnummer is encrypted like everywhere else; rows are purged a day after the last login.
CREATE TABLE idp_accounts (
  sub text PRIMARY KEY,
  given_name text NOT NULL,
  family_name text NOT NULL,
  roles text NOT NULL,
  af_id text,
  pin_encrypted text,
  last_login timestamptz NOT NULL
);
