-- Cluster mode (issue 32) counts the limits shared by every node in PostgreSQL: its table is in
-- migrations/postgres/0019. A SQLite server is always a single node and counts in memory, so nothing
-- changes here (the number is kept in step).
SELECT 1;
