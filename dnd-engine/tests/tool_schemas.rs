//! Snapshots of every tool as the LLM sees it (name, description, strict JSON Schema), one per
//! tool and one of the whole list, so a change to what the model is told shows up in review.

use dnd_engine::tools::tool_specs;

#[test]
fn each_tool_schema() {
    for spec in tool_specs() {
        insta::assert_json_snapshot!(format!("tool_{}", spec.name), spec);
    }
}

#[test]
fn the_whole_tool_list() {
    let names: Vec<String> = tool_specs().into_iter().map(|s| s.name).collect();
    insta::assert_json_snapshot!("tool_list", names);
}
