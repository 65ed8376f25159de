

def test_an_observation_located_out_of_the_test_workspace_is_located_by_its_node_id() -> None:
    from errdex.model import Observation

    wrapped = Observation(snapshot="s", kind="site", path="jax/_src/shard_map.py", line=1, exception="ValueError",
                          message="m", test="tests/shard_map_test.py::ShardMapTest::test_eager_shmap_new_ref",
                          test_path="../../../sandbox/envs/jax/lib/python3.13/site-packages/jax/_src/test_util.py",
                          test_line=1553)
    assert (wrapped.test_path, wrapped.test_line) == ("tests/shard_map_test.py", 0)
    plain = Observation(snapshot="s", kind="site", path="p.py", line=1, exception="E", message="m",
                        test="tests/t.py::test_a", test_path="tests/t.py", test_line=12)
    assert (plain.test_path, plain.test_line) == ("tests/t.py", 12)
