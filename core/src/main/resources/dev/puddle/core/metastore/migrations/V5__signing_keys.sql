-- The public keys Puddle's own token issuer signs with, as JWKs (RFC 7517, JSON text). The token
-- function publishes them here from the private key set it holds in Secrets Manager, so that the
-- other functions verify Puddle's tokens with a metastore read: no Secrets Manager access and no
-- HTTP hop. The same rows are served as the JWKS document at /.well-known/jwks.json. Keys belong
-- to the deployment, not to a realm: a token names its realm in a claim.
CREATE TABLE signing_key (
    kid           text PRIMARY KEY,
    public_jwk    text NOT NULL,
    published_at  timestamptz NOT NULL DEFAULT now()
);
