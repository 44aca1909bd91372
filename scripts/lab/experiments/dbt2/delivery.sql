-- Delivery (4%): the oldest undelivered order of each of the 10 districts.
\set w_id random(1, :W)
\set carrier random(1, 10)
BEGIN;
WITH oldest AS (
	SELECT no_d_id, min(no_o_id) AS o FROM new_order WHERE no_w_id = :w_id
	GROUP BY no_d_id),
     del AS (
	DELETE FROM new_order n USING oldest
	WHERE n.no_w_id = :w_id AND n.no_d_id = oldest.no_d_id
	  AND n.no_o_id = oldest.o RETURNING n.no_d_id, n.no_o_id),
     o AS (
	UPDATE orders SET o_carrier_id = :carrier FROM del
	WHERE o_w_id = :w_id AND o_d_id = del.no_d_id AND o_id = del.no_o_id
	RETURNING o_d_id, o_id, o_c_id),
     ol AS (
	UPDATE order_line SET ol_delivery_d = now() FROM del
	WHERE ol_w_id = :w_id AND ol_d_id = del.no_d_id AND ol_o_id = del.no_o_id
	RETURNING ol_d_id, ol_o_id, ol_amount),
     s AS (
	SELECT o.o_d_id, o.o_c_id, sum(ol.ol_amount) AS amt FROM o
	JOIN ol ON ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id GROUP BY 1, 2)
UPDATE customer c SET c_balance = c_balance + s.amt,
	c_delivery_cnt = c_delivery_cnt + 1
	FROM s WHERE c.c_w_id = :w_id AND c.c_d_id = s.o_d_id
	AND c.c_id = s.o_c_id;
COMMIT;
