pragma solidity ^0.8.0;

interface IRouter {
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts);
}

interface ISwapRouter {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 deadline;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }
    function exactInputSingle(ExactInputSingleParams calldata params) external returns (uint256);
}

contract Vault {
    IRouter public router;
    ISwapRouter public v3;
    uint256 public lastRun;

    function rebalance(uint256 amount, uint256 minOut, address[] calldata path) external {
        router.swapExactTokensForTokens(amount, minOut, path, address(this), block.timestamp); // expect: block-timestamp-deadline
        router.swapExactTokensForTokens(amount, minOut, path, address(this), block.timestamp + 300);
        lastRun = block.timestamp;
    }

    function rebalanceV3(address a, address b, uint256 amount, uint256 minOut, uint256 userDeadline) external {
        v3.exactInputSingle(
            ISwapRouter.ExactInputSingleParams({
                tokenIn: a,
                tokenOut: b,
                fee: 3000,
                recipient: address(this),
                deadline: block.timestamp, // expect: block-timestamp-deadline
                amountIn: amount,
                amountOutMinimum: minOut,
                sqrtPriceLimitX96: 0
            })
        );
        router.swapExactTokensForTokens(amount, minOut, new address[](0), address(this), userDeadline);
    }
}
