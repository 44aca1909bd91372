-- Order-Status (4%): read only.
\set w_id random(1, :W)
\set d_id random(1, 10)
\set c_id random(1, :C)
BEGIN;
SELECT c_balance, c_first, c_last FROM customer
	WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
	FROM order_line WHERE ol_w_id = :w_id AND ol_d_id = :d_id
	AND ol_o_id = (SELECT max(o_id) FROM orders WHERE o_w_id = :w_id
		       AND o_d_id = :d_id AND o_c_id = :c_id);
COMMIT;
