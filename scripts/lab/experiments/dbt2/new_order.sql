-- New-Order (45%): 5-15 order lines, stock updated, the district's next
-- order id taken.  Variables: W, C, I (pgbench -D).
\set w_id random(1, :W)
\set d_id random(1, 10)
\set c_id random(1, :C)
\set ol_cnt random(5, 15)
BEGIN;
SELECT w_tax FROM warehouse WHERE w_id = :w_id;
UPDATE district SET d_next_o_id = d_next_o_id + 1
	WHERE d_w_id = :w_id AND d_id = :d_id RETURNING d_next_o_id - 1 AS o_id \gset
SELECT c_discount, c_last, c_credit FROM customer
	WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
INSERT INTO orders VALUES (:w_id, :d_id, :o_id, :c_id, now(), NULL, :ol_cnt, 1);
INSERT INTO new_order VALUES (:w_id, :d_id, :o_id);
WITH items AS (
	SELECT DISTINCT ON (i_id) n AS ol_number, i_id FROM (
		SELECT n, 1 + (random() * (:I - 1))::int AS i_id
		FROM generate_series(1, :ol_cnt) n) r ORDER BY i_id),
     upd AS (
	UPDATE stock s SET s_quantity = CASE WHEN s_quantity > 15
		THEN s_quantity - 5 ELSE s_quantity + 86 END,
		s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1
	FROM items WHERE s.s_w_id = :w_id AND s.s_i_id = items.i_id
	RETURNING s.s_i_id, s.s_dist_01)
INSERT INTO order_line
	SELECT :w_id, :d_id, :o_id, items.ol_number, items.i_id, :w_id, 5,
	       5 * i.i_price, NULL, upd.s_dist_01
	FROM items JOIN item i ON i.i_id = items.i_id
	     JOIN upd ON upd.s_i_id = items.i_id;
COMMIT;
