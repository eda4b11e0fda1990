#pragma once
namespace fixture::top {
int run();
}
