-- Stock-Level (4%): read only, the last 20 orders of a district.
\set w_id random(1, :W)
\set d_id random(1, 10)
\set threshold random(10, 20)
SELECT count(DISTINCT s_i_id) FROM district, order_line, stock
	WHERE d_w_id = :w_id AND d_id = :d_id
	AND ol_w_id = :w_id AND ol_d_id = :d_id
	AND ol_o_id < d_next_o_id AND ol_o_id >= d_next_o_id - 20
	AND s_w_id = :w_id AND s_i_id = ol_i_id AND s_quantity < :threshold;
