-- The staff order search matches a part of a number, name or phone (ilike %…%) through trigram indexes.
-- PGlite ships pg_trgm as an extension (server/db/client.ts loads it); on PostgreSQL it is a trusted contrib extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
