-- Payment (43%).
\set w_id random(1, :W)
\set d_id random(1, 10)
\set c_id random(1, :C)
\set amount random(100, 500000)
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + :amount / 100.0 WHERE w_id = :w_id;
UPDATE district SET d_ytd = d_ytd + :amount / 100.0
	WHERE d_w_id = :w_id AND d_id = :d_id;
UPDATE customer SET c_balance = c_balance - :amount / 100.0,
	c_ytd_payment = c_ytd_payment + :amount / 100.0,
	c_payment_cnt = c_payment_cnt + 1
	WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
INSERT INTO history VALUES (:c_id, :d_id, :w_id, :d_id, :w_id, now(),
	:amount / 100.0, 'payment');
COMMIT;
