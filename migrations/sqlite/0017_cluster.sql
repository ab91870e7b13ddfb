-- Cluster mode (issue 32) needs PostgreSQL: its tables and fence are in migrations/postgres/0017.
-- A SQLite server is always a single node, so nothing changes here (the number is kept in step).
SELECT 1;
