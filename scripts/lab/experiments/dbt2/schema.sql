-- SPDX-License-Identifier: GPL-2.0
-- DBT-2-like schema (the nine TPC-C tables, fewer columns) and its load.
-- psql variables: W warehouses, C customers per district, I items.
CREATE TABLE warehouse (w_id int PRIMARY KEY, w_name text, w_tax numeric(4,4),
	w_ytd numeric(14,2), w_pad char(80));
CREATE TABLE district (d_w_id int, d_id int, d_name text, d_tax numeric(4,4),
	d_ytd numeric(14,2), d_next_o_id int, d_pad char(80),
	PRIMARY KEY (d_w_id, d_id));
CREATE TABLE customer (c_w_id int, c_d_id int, c_id int, c_first text,
	c_last text, c_credit char(2), c_discount numeric(4,4),
	c_balance numeric(14,2), c_ytd_payment numeric(14,2),
	c_payment_cnt int, c_delivery_cnt int, c_data char(300),
	PRIMARY KEY (c_w_id, c_d_id, c_id));
CREATE TABLE history (h_c_id int, h_c_d_id int, h_c_w_id int, h_d_id int,
	h_w_id int, h_date timestamp, h_amount numeric(8,2), h_data text);
CREATE TABLE item (i_id int PRIMARY KEY, i_name text, i_price numeric(5,2),
	i_data char(50));
CREATE TABLE stock (s_w_id int, s_i_id int, s_quantity int, s_ytd int,
	s_order_cnt int, s_dist_01 char(24), s_data char(50),
	PRIMARY KEY (s_w_id, s_i_id));
CREATE TABLE orders (o_w_id int, o_d_id int, o_id int, o_c_id int,
	o_entry_d timestamp, o_carrier_id int, o_ol_cnt int, o_all_local int,
	PRIMARY KEY (o_w_id, o_d_id, o_id));
CREATE TABLE new_order (no_w_id int, no_d_id int, no_o_id int,
	PRIMARY KEY (no_w_id, no_d_id, no_o_id));
CREATE TABLE order_line (ol_w_id int, ol_d_id int, ol_o_id int,
	ol_number int, ol_i_id int, ol_supply_w_id int, ol_quantity int,
	ol_amount numeric(8,2), ol_delivery_d timestamp, ol_dist_info char(24),
	PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number));

INSERT INTO item SELECT i, 'item' || i, 1 + (i * 7 % 9900) / 100.0, repeat('i', 50)
	FROM generate_series(1, :I) i;
INSERT INTO warehouse SELECT w, 'w' || w, 0.05, 300000, ''
	FROM generate_series(1, :W) w;
INSERT INTO district SELECT w, d, 'd' || d, 0.05, 30000, :C + 1, ''
	FROM generate_series(1, :W) w, generate_series(1, 10) d;
INSERT INTO customer SELECT w, d, c, 'first' || c, 'last' || (c % 1000),
	CASE WHEN c % 10 = 0 THEN 'BC' ELSE 'GC' END, 0.1, -10, 10, 1, 0,
	repeat('c', 300)
	FROM generate_series(1, :W) w, generate_series(1, 10) d,
	     generate_series(1, :C) c;
INSERT INTO stock SELECT w, i, 10 + i % 91, 0, 0, repeat('s', 24), repeat('x', 50)
	FROM generate_series(1, :W) w, generate_series(1, :I) i;
-- One order per customer; the last 30% are not delivered yet.
INSERT INTO orders SELECT w, d, o, o, now(),
	CASE WHEN o <= :C * 7 / 10 THEN 1 + o % 10 END, 10, 1
	FROM generate_series(1, :W) w, generate_series(1, 10) d,
	     generate_series(1, :C) o;
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
INSERT INTO new_order SELECT w, d, o
	FROM generate_series(1, :W) w, generate_series(1, 10) d,
	     generate_series(:C * 7 / 10 + 1, :C) o;
INSERT INTO order_line SELECT w, d, o, n, 1 + (o * 31 + n * 17) % :I, w, 5,
	CASE WHEN o <= :C * 7 / 10 THEN 0 ELSE 12.34 END,
	CASE WHEN o <= :C * 7 / 10 THEN now() END, repeat('d', 24)
	FROM generate_series(1, :W) w, generate_series(1, 10) d,
	     generate_series(1, :C) o, generate_series(1, 10) n;
VACUUM ANALYZE;
