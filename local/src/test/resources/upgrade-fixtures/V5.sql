-- V5's published signing keys.
INSERT INTO signing_key (kid, public_jwk, published_at)
    VALUES ('puddle-2025-05', '{"kty":"EC","crv":"P-256","kid":"puddle-2025-05","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","use":"sig","alg":"ES256"}',
            '2025-05-01 00:00:00+00');
