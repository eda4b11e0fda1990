#pragma once
namespace fixture::base::detail {
int hidden();
}
